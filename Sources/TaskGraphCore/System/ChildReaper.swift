import CSystemShims
import Foundation

/// One thread for all of a run's children: it waits with epoll on every child's pipes and exit
/// (a pidfd; without pidfds, Linux before 5.3, it polls `waitid` every 50 ms), reads output as it
/// comes, kills what is left of a group once its leader exits, drains the pipes for at most
/// `WatchedChild.drainTimeout`, reaps the leader and resumes the task waiting for it. It also
/// sends the SIGKILL due a grace period after a cancelled child's SIGTERM.
///
/// The thread starts with the first child and exits once no child and no pending SIGKILL is left,
/// so an idle run holds no reaper thread.
final class ChildReaper: Sendable {
    /// What the other threads ask of the reaper thread.
    private enum Command {
        /// Watch a child just spawned.
        case watch(WatchedChild)
        /// Send SIGKILL to the child's group at the deadline, unless it was reaped by then.
        case killGroup(ChildProcesses.Child, at: ContinuousClock.Instant)
    }

    /// The part other threads share with the reaper thread.
    private struct Mailbox {
        var commands: [Command] = []
        /// The eventfd that wakes the thread; -1 while no thread runs.
        var wakeDescriptor: Int32 = -1
        var isRunning = false
        /// Waiting for the thread to exit.
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Milliseconds between `waitid` checks of children without a pidfd.
    private static let exitPollInterval: Int32 = 50

    /// The token of the eventfd in epoll; children's tokens are their spawn number times 4 plus
    /// the source (0: stdout, 1: stderr, 2: exit).
    private static let wakeToken = UInt64.max

    private let registry: ChildRegistry
    private let mailbox = Locked(Mailbox())
    /// Whether exits are found by polling `waitid` even where pidfds exist (to test the fallback).
    private let pollsExits: Bool

    /// A reaper for the children registered in `registry`.
    /// - Parameter pollsExits: Find exits by polling `waitid`, as without pidfds (for tests).
    init(registry: ChildRegistry, pollsExits: Bool = false) {
        self.registry = registry
        self.pollsExits = pollsExits
    }

    /// Watches `child` until it is reaped, then resumes `whenReaped` with what it left.
    func watch(
        _ child: ChildProcesses.Child, outputLimit: Int, errorTailLimit: Int,
        whenReaped: CheckedContinuation<ProcessResult, Never>
    ) {
        let collector = OutputCollector(
            standardOutput: child.standardOutput, standardError: child.standardError,
            outputLimit: outputLimit, errorTailLimit: errorTailLimit)
        send(.watch(WatchedChild(
            child: child, collector: collector, exitDescriptor: pollsExits ? -1 : tg_pidfd_open(child.pid),
            whenReaped: whenReaped)))
    }

    /// Sends SIGKILL to `child`'s group at `deadline` unless it was reaped by then.
    func killGroup(of child: ChildProcesses.Child, at deadline: ContinuousClock.Instant) {
        send(.killGroup(child, at: deadline))
    }

    /// Whether the reaper thread runs.
    var isRunning: Bool { mailbox.withLock { $0.isRunning } }

    /// Returns once the reaper thread has exited (at once if none runs).
    func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = mailbox.withLock { mailbox in
                if !mailbox.isRunning { return true }
                mailbox.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Queues `command` and wakes the thread, starting it if none runs.
    private func send(_ command: Command) {
        let start = mailbox.withLock { mailbox in
            mailbox.commands.append(command)
            if mailbox.isRunning {
                if mailbox.wakeDescriptor >= 0 {
                    var one: UInt64 = 1
                    _ = write(mailbox.wakeDescriptor, &one, 8)
                }
                return false
            }
            mailbox.isRunning = true
            return true
        }
        if start {
            BlockingThreadPool.startThread { self.runLoop() }
        }
    }

    /// The reaper thread: until nothing is left to watch.
    private func runLoop() {
        var loop = ReaperLoop(registry: registry, wakeToken: Self.wakeToken)
        let wake = tg_eventfd_create()
        precondition(wake >= 0 && loop.epoll >= 0, "reaper: \(ChildProcesses.errorText(errno))")
        tg_epoll_add(loop.epoll, wake, Self.wakeToken)
        mailbox.withLock { $0.wakeDescriptor = wake }
        let epoll = loop.epoll
        var waiters: [CheckedContinuation<Void, Never>] = []
        while true {
            let taken = mailbox.withLock { mailbox -> [Command]? in
                if mailbox.commands.isEmpty, loop.isIdle {
                    // All in one step: a `send` after this starts a new thread, and a
                    // `waitUntilIdle` after it waits for that one, not for this.
                    close(mailbox.wakeDescriptor)
                    close(epoll)
                    mailbox.wakeDescriptor = -1
                    mailbox.isRunning = false
                    waiters = mailbox.idleWaiters
                    mailbox.idleWaiters = []
                    return nil
                }
                defer { mailbox.commands = [] }
                return mailbox.commands
            }
            guard let commands = taken else { break }
            for command in commands {
                switch command {
                case .watch(let child): loop.add(child)
                case .killGroup(let child, let deadline): loop.scheduleKill(of: child, at: deadline)
                }
            }
            // A SIGKILL asked for a child reaped meanwhile leaves nothing to wait for.
            if loop.isIdle { continue }
            loop.waitAndHandle(pollInterval: Self.exitPollInterval) {
                var count: UInt64 = 0
                _ = read(wake, &count, 8)
            }
        }
        for waiter in waiters { waiter.resume() }
    }
}
