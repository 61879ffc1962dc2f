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

    /// How `process` ended; a hang guard kills it after 25 s (a signal it ignores, a pipe it
    /// never finds closed), so that a regression fails the test instead of stalling the suite.
    private func waitForTermination(of process: TaskGraphProcess) async -> Termination {
        let guardian = Task {
            try await Task.sleep(for: .seconds(25))
            process.send(SIGKILL)
        }
        defer { guardian.cancel() }
        return await process.waitForTermination()
    }

    private func run(signal: Int32) async throws {
        let directory = try fixtureDirectory(["sleepers.yaml"])
        let process = try TaskGraphProcess(["run", "sleepers.yaml", "--jobs", "3", "--output", "out"], in: directory)
        let shells = try await waitForFiles("pid-", count: 3, in: directory)
        let children = try await waitForFiles("child-", count: 3, in: directory)
        let start = ContinuousClock.now
        process.send(signal)
        let termination = await waitForTermination(of: process)
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

    /// A closed terminal or a dropped ssh connection: the programs (in process groups of their
    /// own, which the hangup does not reach) are stopped as on SIGTERM.
    @Test func sighupCancelsRunningProgramsThenDiesBySIGHUP() async throws {
        try await run(signal: SIGHUP)
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
        // Later than `InterruptibleRun.secondSignalDelay` (500 ms), within which a signal is
        // taken for a copy of the first.
        try await Task.sleep(for: .milliseconds(1_000))
        let start = ContinuousClock.now
        process.send(SIGINT)
        let termination = await process.waitForTermination()
        #expect(termination == .killed(by: SIGINT))
        #expect(ContinuousClock.now - start < .seconds(15)) // hang guard: the grace period is 20 s
        try await Task.sleep(for: .milliseconds(100))
        for pid in pids { #expect(!isAlive(pid)) }
    }

    /// `run --json | consumer` where the consumer exits: the next event finds the pipe closed,
    /// the run is cancelled as on SIGTERM (the program stopped, nothing partial) and taskgraph
    /// dies by SIGPIPE, as a pipeline's writer does.
    @Test func aClosedOutputPipeCancelsTheRunThenDiesBySIGPIPE() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            operations:
              slow:
                op: exec
                command: [sh, -c, 'echo $$ > pid-slow; exec sleep 300']
              tick:
                op: exec
                command: [sh, -c, 'while [ ! -e closed ]; do sleep 0.05; done']
            """, to: "piped.yaml", in: directory)
        // The pipe is made by the shell, between taskgraph and its consumer alone (a pipe made
        // here would leak into the children of tests running beside this one, keeping it open).
        // The consumer reads the first event, waits until `slow` has written its pid (not only
        // made the file: cancelled in between, it would leave it empty), closes its end and lets
        // `tick` end, whose event then meets the closed pipe.
        let script = #"""
            ( "$0" run piped.yaml --json --no-cache --output out 2>stderr.txt; echo $? > status.txt ) |
            { head -n 1 > /dev/null; while [ ! -s pid-slow ]; do sleep 0.05; done; exec 0<&-; touch closed; }
            """#
        let shell = try TaskGraphProcess(
            ["-c", script, TaskGraphProcess.binary.path], in: directory, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(await waitForTermination(of: shell) == .exited(0))
        let pids = lines(of: "pid-slow", in: directory).compactMap { Int32($0) }
        #expect(pids.count == 1)
        #expect(lines(of: "status.txt", in: directory) == ["141"], "killed by SIGPIPE (128 + 13)")
        let standardError = lines(of: "stderr.txt", in: directory).joined(separator: "\n")
        // `tick` may end before or after an event meets the closed pipe: `1 ok, 1 cancelled` or
        // `2 cancelled` (seen once in a full suite run).
        #expect(standardError.contains("cancelled after "), "\(standardError)")
        for pid in pids { #expect(!isAlive(pid), "process \(pid) survived") }
    }
}
