import Foundation
import Testing

@Suite struct CancellationTests {
    /// Whether `pid` is a running process (a zombie waiting for the container's init to reap it
    /// is not).
    private func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return true }
        return state != "Z"
    }

    private func run(signal: Int32) async throws {
        let directory = try fixtureDirectory(["sleepers.yaml"])
        let process = try TaskGraphProcess(["run", "sleepers.yaml", "--jobs", "3", "--output", "out"], in: directory)
        let shells = try await waitForFiles("pid-", count: 3, in: directory)
        let children = try await waitForFiles("child-", count: 3, in: directory)
        let start = ContinuousClock.now
        process.send(signal)
        let termination = await process.waitForTermination()
        let elapsed = ContinuousClock.now - start
        #expect(termination == .killed(by: signal))
        // A hang guard only (the programs sleep 300 s): the latency itself (about 10 ms) is
        // measured by bench/run-cancel.sh, since this suite runs beside CPU-heavy tests (debug
        // builds of the photos pipeline) that delay the test's own wake-up by seconds.
        #expect(elapsed < .seconds(25), "exit took \(elapsed)")
        for pid in shells + children { #expect(!isAlive(pid), "process \(pid) survived") }
        let output = directory.appendingPathComponent("out")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        #expect(written == [])
        #expect(process.standardError.contains(": 3 cancelled, 3 not started\n"))
    }

    @Test func sigintCancelsRunningProgramsThenDiesBySIGINT() async throws {
        try await run(signal: SIGINT)
    }

    @Test func sigtermCancelsRunningProgramsThenDiesBySIGTERM() async throws {
        try await run(signal: SIGTERM)
    }

    @Test func sigintDuringValidateDiesBySIGINT() async throws {
        let directory = try fixtureDirectory()
        // 200,000 operations: many seconds of validating in a debug build.
        var text = "version: 1\noperations:\n"
        for index in 0..<200_000 {
            text += "  op\(index): {op: group\(index == 0 ? "" : ", needs: [op\(index / 2)]")}\n"
        }
        try write(text, to: "huge.yaml", in: directory)
        let process = try TaskGraphProcess(["validate", "huge.yaml"], in: directory)
        // Signalled once its handlers are installed; before that any process dies by the signal.
        for _ in 0..<400 where !process.catches(SIGINT) {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(process.catches(SIGINT), "validate never trapped SIGINT")
        let start = ContinuousClock.now
        process.send(SIGINT)
        let termination = await process.waitForTermination()
        #expect(termination == .killed(by: SIGINT), "\(process.standardError)")
        #expect(ContinuousClock.now - start < .seconds(25))
        #expect(!process.standardError.contains("valid"))
    }

    @Test func secondSigintDiesImmediately() async throws {
        let directory = try fixtureDirectory(["stubborn.yaml"])
        let process = try TaskGraphProcess(["run", "stubborn.yaml"], in: directory)
        let pids = try await waitForFiles("pid-", count: 1, in: directory)
        process.send(SIGINT)
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        process.send(SIGINT)
        let termination = await process.waitForTermination()
        #expect(termination == .killed(by: SIGINT))
        #expect(ContinuousClock.now - start < .seconds(15))  // hang guard: the grace period is 20 s
        try await Task.sleep(for: .milliseconds(100))
        for pid in pids { #expect(!isAlive(pid)) }
    }
}
