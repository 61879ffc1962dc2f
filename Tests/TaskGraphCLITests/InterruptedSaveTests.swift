import Foundation
import Testing

/// Signals while `save` is writing large files: no temporary or partial file may be left behind,
/// not even by the second Ctrl-C, which ends the process at once.
@Suite struct InterruptedSaveTests {
    /// Three `save`s writing 40 MB each, at once: long enough for their temporary files to be
    /// seen and the signals to land while they are written.
    private static let pipeline = """
        version: 1
        vars: {parts: [a, b, c]}
        operations:
          make: {foreach: "${parts}", op: exec, command: [head, -c, "40000000", /dev/zero]}
          keep: {foreach: "${parts}", op: save, needs: make, path: "${item}.bin"}
        """
    private static let size = 40_000_000

    /// Runs the pipeline, sends `SIGINT` once after each delay of `gaps` (the first counted from
    /// the moment a temporary file appears) and waits for the process to end. Watches and
    /// signals on a Dispatch thread: the cooperative pool may be too busy to wake up in time.
    /// Tries again, up to three times, if every save finished before a temporary file was seen
    /// or, with `cancellingASave`, before the signal landed (on a busy machine a 40 MB save can
    /// finish in the moment between).
    private func interruptSaving(
        gaps: [Duration], cancellingASave: Bool = false
    ) async throws -> (process: TaskGraphProcess, output: URL, termination: Termination)? {
        for _ in 0..<3 {
            let directory = try fixtureDirectory()
            try write(Self.pipeline, to: "big.yaml", in: directory)
            let output = directory.appendingPathComponent("out")
            let process = try TaskGraphProcess(
                ["run", "big.yaml", "--jobs", "3", "--output", output.path], in: directory)
            let signalled = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: Self.watchAndSignal(process, output: output, gaps: gaps))
                }
            }
            let termination = await process.waitForTermination()
            if signalled, !cancellingASave || Self.cancelledSaves(process) > 0 { return (process, output, termination) }
        }
        Issue.record("every save finished before the signal landed, three times")
        return nil
    }

    /// How many `keep` saves the summary shows cancelled.
    private static func cancelledSaves(_ process: TaskGraphProcess) -> Int {
        process.standardError.split(separator: "\n").filter { $0.hasPrefix("keep[") && $0.contains(" cancelled ") }
            .count
    }

    /// Blocking: waits (at most 60 s) for a temporary file in `output`, then sends the signals.
    /// Returns false if the process ended first.
    private static func watchAndSignal(_ process: TaskGraphProcess, output: URL, gaps: [Duration]) -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while !contents(of: output).contains(where: { $0.hasPrefix(".") }) {
            guard process.isRunning, ContinuousClock.now < deadline else { return false }
            usleep(1_000)
        }
        for gap in gaps {
            usleep(UInt32(gap / .microseconds(1)))
            process.send(SIGINT)
        }
        return true
    }

    private static func contents(of directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    /// Files in `directory` other than complete outputs (a save that finished before the signal
    /// leaves its file): temporary files and partial files.
    private func leftovers(in directory: URL) -> [String] {
        Self.contents(of: directory).filter { name in
            let path = directory.appendingPathComponent(name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            return name.hasPrefix(".") || size != Self.size
        }
    }

    @Test func sigintStopsTheWritesAndRemovesTheTemporaryFiles() async throws {
        guard let (process, output, termination) = try await interruptSaving(gaps: [.zero], cancellingASave: true)
        else {
            return
        }
        #expect(termination == .killed(by: SIGINT))
        #expect(leftovers(in: output) == [])
        #expect(Self.cancelledSaves(process) > 0, "\(process.standardError)")
    }

    @Test func secondSigintRemovesTheTemporaryFilesBeforeExiting() async throws {
        // 20 ms apart: not merged into one delivery.
        guard let (_, output, termination) = try await interruptSaving(gaps: [.zero, .milliseconds(20)]) else { return }
        #expect(termination == .killed(by: SIGINT))
        #expect(leftovers(in: output) == [])
    }
}
