import Foundation
import Testing

/// What the environment can take from the reaper (descriptors, its children's exit statuses)
/// fails the `exec` that needed it, with a message; taskgraph does not crash, and exits 1.
@Suite struct ChildWatchFailureTests {
    /// One `exec` of a program that takes a moment, so that its exit is watched.
    private static let pipeline = """
        version: 1
        name: watch
        operations:
          nap:
            op: exec
            command: [sleep, "0.2"]
        """

    /// Runs `taskgraph run watch.yaml` in `directory` through `/bin/sh -c script`; the script
    /// gets the binary as `$0`.
    private static func run(script: String, in directory: URL) async throws -> TaskGraphProcess {
        let process = try TaskGraphProcess(
            ["-c", script, TaskGraphProcess.binary.path], in: directory, executable: URL(fileURLWithPath: "/bin/sh"))
        _ = await process.waitForTermination()
        return process
    }

    /// The failure line of `nap` in `process`'s log, from its state on (without the time).
    private static func failure(in process: TaskGraphProcess) -> String? {
        let log = process.standardError
        return log.range(of: "FAILED    nap: ").map { start in
            String(log[start.lowerBound...].prefix { $0 != "\n" })
        }
    }

    /// Under a descriptor limit just high enough to read the pipeline and start the run, the
    /// reaper cannot make its epoll instance or eventfd: the `exec` fails saying so. The limit
    /// is found by trying them in turn (what taskgraph and libdispatch hold at start-up varies
    /// with their versions); no limit from 8 on may crash taskgraph. At 7 or fewer, libdispatch
    /// can trap as the main thread leaves for `dispatch_main` (its main queue's eventfd, made
    /// then, races the descriptor taskgraph reads the pipeline with: at 7, 5 of 80 debug runs),
    /// where no taskgraph code can report it.
    @Test func aReaperWithoutDescriptorsFailsItsExecAndTheRunExitsOne() async throws {
        let directory = try fixtureDirectory()
        try write(Self.pipeline, to: "watch.yaml", in: directory)
        let reaperFailures: Set<String> = [
            "FAILED    nap: cannot watch child processes: epoll_create1: Too many open files",
            "FAILED    nap: cannot watch child processes: eventfd: Too many open files",
        ]
        var sawReaperFailure = false
        for limit in 8...64 {
            // Only standard input, output and error are inherited, whatever the test runner holds.
            let script =
                #"exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n "#
                + "\(limit)" + #"; exec "$0" run watch.yaml --no-cache --no-progress --output out"#
            let process = try await Self.run(script: script, in: directory)
            let termination = await process.waitForTermination()
            let stderr = process.standardError
            #expect(
                termination == .exited(0) || termination == .exited(1) || termination == .exited(2),
                "limit \(limit): \(termination)\n\(stderr)")
            if let failure = Self.failure(in: process), reaperFailures.contains(failure) {
                sawReaperFailure = true
                #expect(termination == .exited(1), "limit \(limit): \(stderr)")
                #expect(stderr.contains("1 failed in "), "limit \(limit): \(stderr)")
            }
            if termination == .exited(0) { break }
        }
        #expect(sawReaperFailure)
    }

    /// Started with SIGCHLD ignored (which a process inherits across exec), taskgraph's children
    /// are reaped by the kernel as they exit, so how they ended is unknown: the `exec` fails
    /// saying so, where it once trapped. Its exit is noticed through its pidfd and `wait4`
    /// fails, or (when the child was gone before its pidfd was opened) through `waitid`.
    @Test func childrenReapedByTheKernelFailTheirExecAndTheRunExitsOne() async throws {
        let directory = try fixtureDirectory()
        try write(Self.pipeline, to: "watch.yaml", in: directory)
        let process = try await Self.run(
            script: #"exec env --ignore-signal=CHLD "$0" run watch.yaml --no-cache --no-progress --output out"#,
            in: directory)
        #expect(await process.waitForTermination() == .exited(1))
        let failure = Self.failure(in: process)
        #expect(
            failure == "FAILED    nap: cannot learn how 'sleep' ended: wait4: No child processes"
                || failure == "FAILED    nap: cannot learn how 'sleep' ended: waitid: No child processes",
            "\(process.standardError)")
    }
}
