import CSystemShims
import Foundation

/// One child the reaper watches: its output so far, how its exit is noticed, whether its leader
/// has exited, and the task waiting for it. Touched only by the reaper's thread.
struct WatchedChild {
    /// How long the pipes may stay open after the leader exited and its group was killed (only a
    /// process that left the group can hold them); later output is dropped.
    static let drainTimeout = Duration.seconds(1)

    /// The child.
    let child: ChildProcesses.Child
    /// The program it runs, for messages.
    let program: String
    /// Its output so far.
    var collector: OutputCollector
    /// Writes its standard input, when it has bytes to read.
    var feeder: InputFeeder?
    /// A pidfd that becomes readable when the leader exits; -1 without one (Linux before 5.3:
    /// the reaper then polls `waitid`) and once the exit was noticed.
    var exitDescriptor: Int32
    /// When the reaper stops waiting for the pipes; set when the leader's exit is noticed.
    var drainDeadline: ContinuousClock.Instant?
    /// Resumed with the result once the child is reaped.
    let whenReaped: CheckedContinuation<ProcessResult, any Error>
    /// Why waiting for the leader failed, if it did: how it ended is unknown.
    private var waitFailure: ChildProcessError?

    /// Watches `child`, which runs `program`; see the properties for the others.
    init(
        child: ChildProcesses.Child, program: String, collector: OutputCollector, feeder: InputFeeder?,
        exitDescriptor: Int32, whenReaped: CheckedContinuation<ProcessResult, any Error>
    ) {
        self.child = child
        self.program = program
        self.collector = collector
        self.feeder = feeder
        self.exitDescriptor = exitDescriptor
        self.whenReaped = whenReaped
    }

    /// Whether the leader's exit has been noticed.
    var leaderExited: Bool { drainDeadline != nil }

    /// Whether the leader has exited and the pipes are closed or have had their time.
    func isDone(at now: ContinuousClock.Instant) -> Bool {
        guard let drainDeadline else { return false }
        return !collector.isOpen || now >= drainDeadline
    }

    /// Records the leader's exit: kills what is left of its group, stops feeding it and watching
    /// the pidfd and starts the drain timeout.
    mutating func noteLeaderExit(registry: ChildRegistry, epoll: Int32, now: ContinuousClock.Instant) {
        guard !leaderExited else { return }
        registry.signalGroup(of: child.spawnNumber, SIGKILL)
        feeder?.close(epoll: epoll)
        if exitDescriptor >= 0 {
            tg_epoll_remove(epoll, exitDescriptor)
            close(exitDescriptor)
            exitDescriptor = -1
        }
        drainDeadline = now + Self.drainTimeout
    }

    /// Without a pidfd: whether the leader has exited, asked without waiting and leaving it
    /// unreaped so its group id stays reserved. When `waitid` fails (ECHILD: something else
    /// reaped the leader, e.g. taskgraph was started with SIGCHLD ignored), the leader counts as
    /// exited and `reap` reports the failure.
    mutating func hasExitedByPolling() -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOWAIT | WNOHANG) != 0 {
            guard errno == EINTR else {
                waitFailure = .waitFailed(program: program, call: "waitid", reason: ChildProcesses.errorText(errno))
                return true
            }
        }
        // With no exit to report, `info` stays zeroed.
        return info.si_signo == SIGCHLD
    }

    /// Unregisters and reaps the exited leader, closes what is left open and resumes the task
    /// waiting for it: with the result, or with `ChildProcessError.waitFailed` when waiting for
    /// the leader failed.
    consuming func reap(registry: ChildRegistry, epoll: Int32) {
        registry.unregister(child.spawnNumber)
        var status: Int32 = 0
        var usage = rusage()
        while waitFailure == nil, wait4(child.pid, &status, 0, &usage) < 0 {
            if errno != EINTR {
                waitFailure = .waitFailed(program: program, call: "wait4", reason: ChildProcesses.errorText(errno))
            }
        }
        feeder?.close(epoll: epoll)
        let result = collector.finish(
            status: ExitStatus(waitStatus: status), usage: ResourceUsage(childUsage: usage), epoll: epoll)
        if let waitFailure {
            whenReaped.resume(throwing: waitFailure)
        } else {
            whenReaped.resume(returning: result)
        }
    }
}
