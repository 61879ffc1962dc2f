import Foundation
import Testing

/// After cleaning up on SIGINT or SIGTERM, taskgraph dies by the signal, so that a shell sees why
/// it ended and stops too, as it does for make or bash.
@Suite struct ShellSignalTests {
    /// Waits until `process` (or a child writing to its standard error) has started the `slow`
    /// operation of slow.yaml.
    private func waitForSlowStart(_ process: TaskGraphProcess) async throws {
        for _ in 0..<400 where !process.standardError.contains("start     slow (exec)") {
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(process.standardError.contains("start     slow (exec)"), "\(process.standardError)")
    }

    @Test func ctrlCStopsAShellLoopAfterTheFirstRun() async throws {
        let directory = try fixtureDirectory(["slow.yaml"])
        // The inner shell runs the loop; the outer one reports how the inner one ended (its trap
        // only keeps it alive to do so: it still waits for the inner shell first).
        let loop =
            #"for i in 1 2 3; do echo "iteration $i"; "$0" run slow.yaml --output out; done; echo "loop finished""#
        let script = #"trap 'echo "outer shell got SIGINT"' INT; bash -c "$1" "$0"; echo "loop shell status $?""#
        // Started as from a terminal: the test runner's threads block SIGINT, and a process
        // inherits that; env's --default-signal unblocks it.
        let shell = try TaskGraphProcess(
            ["--default-signal=INT", "bash", "-c", script, TaskGraphProcess.binary.path, loop], in: directory,
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        try await waitForSlowStart(shell)
        // As Ctrl-C on a terminal does: both shells and taskgraph receive SIGINT.
        shell.sendToGroup(SIGINT)
        let termination = await shell.waitForTermination()
        #expect(termination == .exited(0))
        // 130 = 128 + SIGINT: the loop's shell saw taskgraph killed by SIGINT, so it stopped the
        // loop and died by SIGINT itself, as bash does.
        #expect(shell.standardOutput == "iteration 1\nouter shell got SIGINT\nloop shell status 130\n")
        #expect(shell.standardError.contains(": 1 cancelled\n"), "\(shell.standardError)")
    }

    /// `timeout -s INT` signals taskgraph, then its whole process group: the copy that arrives
    /// at once is not a second Ctrl-C, so the run is cancelled and summed up as for one.
    @Test func timeoutsSignalToTheProcessAndItsGroupStillEndsWithTheSummary() async throws {
        let directory = try fixtureDirectory(["slow.yaml"])
        let process = try TaskGraphProcess(
            // 5 s: the run must have started (a debug build beside other tests can take seconds).
            ["-s", "INT", "5", TaskGraphProcess.binary.path, "run", "slow.yaml", "--output", "out"], in: directory,
            executable: URL(fileURLWithPath: "/usr/bin/timeout"))
        let termination = await process.waitForTermination()
        #expect(termination == .exited(124), "\(process.standardError)")
        let lines = process.standardError.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("slow ") && $0.contains(" cancelled ") }, "\(process.standardError)")
        #expect(lines.last?.hasPrefix("cancelled after ") == true, "\(process.standardError)")
        #expect(lines.last?.hasSuffix(": 1 cancelled") == true, "\(process.standardError)")
    }

    @Test func sigtermKillsASingleRunAfterItsSummary() async throws {
        let directory = try fixtureDirectory(["slow.yaml"])
        let process = try TaskGraphProcess(["run", "slow.yaml", "--output", "out"], in: directory)
        try await waitForSlowStart(process)
        process.send(SIGTERM)
        let termination = await process.waitForTermination()
        #expect(termination == .killed(by: SIGTERM))
        let lines = process.standardError.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("slow ") && $0.contains(" cancelled ") }, "\(process.standardError)")
        #expect(lines.last?.hasPrefix("cancelled after ") == true, "\(process.standardError)")
        #expect(lines.last?.hasSuffix(": 1 cancelled") == true, "\(process.standardError)")
    }
}
