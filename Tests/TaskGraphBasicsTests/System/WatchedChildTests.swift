import Foundation
import Testing

@testable import TaskGraphBasics

/// A child that something else reaped (the kernel does, when taskgraph was started with SIGCHLD
/// ignored) cannot be waited for: its task gets `ChildProcessError.waitFailed`, with the call
/// that failed and the system's reason, instead of a trap.
@Suite struct WatchedChildTests {
    @Test(arguments: [false, true])
    func aChildReapedElsewhereFailsWithWaitFailed(polling: Bool) async throws {
        let registry = ChildRegistry()
        let child = try ChildProcesses.spawn(
            arguments: ["true"], environment: ["PATH": "/usr/bin:/bin"], in: nil, registry: registry)
        let pid = child.pid
        // Reaped here, behind the reaper's back.
        let reaped = try await BlockingIO.run { () -> pid_t in
            var status: Int32 = 0
            return waitpid(pid, &status, 0)
        }
        #expect(reaped == pid)
        let collector = OutputCollector(
            standardOutput: child.standardOutput, standardError: child.standardError, outputLimit: 1 << 10,
            errorTailLimit: 1 << 10)
        do {
            let _: ProcessResult = try await withCheckedThrowingContinuation { continuation in
                var watched = WatchedChild(
                    child: child, program: "true", collector: collector, feeder: nil, exitDescriptor: -1,
                    whenReaped: continuation)
                // Without a pidfd the reaper asks `waitid` whether the leader exited: it counts as
                // exited, and `reap` reports why it cannot tell how.
                if polling {
                    let exited = watched.hasExitedByPolling()
                    #expect(exited)
                }
                watched.reap(registry: registry, epoll: -1)
            }
            Issue.record("reaped a child that was reaped already")
        } catch let error as ChildProcessError {
            #expect(
                error == .waitFailed(program: "true", call: polling ? "waitid" : "wait4", reason: "No child processes"))
            #expect(
                error.description
                    == "cannot learn how 'true' ended: \(polling ? "waitid" : "wait4"): No child processes")
        }
        #expect(!registry.isRegistered(child.spawnNumber))
    }
}
