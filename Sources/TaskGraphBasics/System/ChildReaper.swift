import CSystemShims
import Foundation

/// One thread for all of a run's children: it spawns each child, waits with epoll on every
/// child's pipes and exit (a pidfd; without pidfds, Linux before 5.3, it polls `waitid` every
/// 50 ms), reads output as it comes, kills what is left of a group once its leader exits, drains
/// the pipes for at most `WatchedChild.drainTimeout`, reaps the leader and resumes the task
/// waiting for it. It also sends the SIGKILL due a grace period after a cancelled child's SIGTERM.
///
/// The thread starts with the first child and exits once no child and no pending SIGKILL has
/// been left for `lingerTime` (at once when `waitUntilIdle` is waiting), so an idle run holds no
/// reaper thread and a run starting children one after the other starts one thread, not one per
/// child.
final class ChildReaper: Sendable {
    /// What the other threads ask of the reaper thread.
    private enum Command {
        /// Spawn a child and watch it until it is reaped.
        case start(ChildLaunch, whenReaped: CheckedContinuation<ProcessResult, any Error>)
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

    /// How long the thread waits for another child once none is left, before it exits.
    static let lingerTime = Duration.seconds(1)

    /// The token of the eventfd in epoll; children's tokens are their spawn number times 4 plus
    /// the source (0: stdout, 1: stderr, 2: exit, 3: room in stdin).
    private static let wakeToken = UInt64.max

    private let registry: ChildRegistry
    /// Where the programs are found (`ChildProcesses.programs`).
    private let programs: ProgramLocations
    private let mailbox = Locked(Mailbox())
    /// Whether exits are found by polling `waitid` even where pidfds exist (to test the fallback).
    private let pollsExits: Bool

    /// A reaper for the children registered in `registry`, started from the programs found
    /// through `programs`.
    /// - Parameter pollsExits: Find exits by polling `waitid`, as without pidfds (for tests).
    init(registry: ChildRegistry, programs: ProgramLocations = ProgramLocations(), pollsExits: Bool = false) {
        self.registry = registry
        self.programs = programs
        self.pollsExits = pollsExits
    }

    /// Spawns the child `launch` describes and watches it until it is reaped, then resumes
    /// `whenReaped` with what it left; resumes it with `CancellationError` if `launch` was
    /// cancelled before the spawn, with `ChildProcessError` if the child cannot be started.
    func start(_ launch: ChildLaunch, whenReaped: CheckedContinuation<ProcessResult, any Error>) {
        send(.start(launch, whenReaped: whenReaped))
    }

    /// Sends SIGTERM to the child's group now and SIGKILL after `gracePeriod`, unless it was
    /// reaped by then. Never blocks.
    func terminate(_ child: ChildProcesses.Child, gracePeriod: Duration) {
        if registry.signalGroup(of: child.spawnNumber, SIGTERM) {
            // A stopped group (a paused run) handles SIGTERM only once continued.
            registry.continueIfStopped(child.spawnNumber)
            killGroup(of: child, at: .now + gracePeriod)
        }
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
                Self.wake(mailbox.wakeDescriptor)
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
                Self.wake(mailbox.wakeDescriptor)
                return false
            }
            mailbox.isRunning = true
            return true
        }
        if start {
            BlockingThreadPool.startThread { self.runLoop() }
        }
    }

    /// Wakes the thread waiting in epoll through `descriptor`, its eventfd (-1: not waiting yet).
    private static func wake(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// The reaper thread: until nothing has been left to watch for `lingerTime`.
    private func runLoop() {
        // Children's standard input is written here (`InputFeeder`).
        tg_block_sigpipe_in_thread()
        var loop: ReaperLoop
        do {
            loop = try ReaperLoop(registry: registry, wakeToken: Self.wakeToken)
        } catch {
            refuseCommands(error)
            return
        }
        let wake = loop.wake
        mailbox.withLock { mailbox in
            mailbox.wakeDescriptor = wake
            // Asked before the eventfd existed: do not linger.
            if !mailbox.idleWaiters.isEmpty { Self.wake(wake) }
        }
        let epoll = loop.epoll
        var waiters: [CheckedContinuation<Void, Never>] = []
        var idleSince: ContinuousClock.Instant?
        while true {
            let now = ContinuousClock.now
            let taken = mailbox.withLock { mailbox -> [Command]? in
                if mailbox.commands.isEmpty, loop.isIdle,
                    !mailbox.idleWaiters.isEmpty || idleSince.map({ now - $0 >= Self.lingerTime }) ?? false
                {
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
                case .start(let launch, let whenReaped): start(launch, whenReaped: whenReaped, in: &loop)
                case .killGroup(let child, let deadline): loop.scheduleKill(of: child, at: deadline)
                }
            }
            // Idle (a SIGKILL asked for a child reaped meanwhile leaves nothing to wait for):
            // wait only for a command, at most until the lingering ends.
            idleSince = loop.isIdle ? idleSince ?? now : nil
            let limit = idleSince.map { Self.lingerTime - (now - $0) }
            loop.waitAndHandle(pollInterval: Self.exitPollInterval, atMost: limit) {
                var count: UInt64 = 0
                _ = read(wake, &count, 8)
            }
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The reaper thread, when it could not make its loop: fails every child asked for with
    /// `error` and ends, so the next command starts a thread that tries again. It leaves no
    /// SIGKILL to send: a group is watched only by a running thread, which exits only once
    /// none is left.
    private func refuseCommands(_ error: ChildProcessError) {
        let (commands, waiters) = mailbox.withLock { mailbox in
            defer {
                mailbox.commands = []
                mailbox.idleWaiters = []
                mailbox.isRunning = false
            }
            return (mailbox.commands, mailbox.idleWaiters)
        }
        for case .start(let launch, let whenReaped) in commands {
            whenReaped.resume(throwing: launch.isCancelled ? CancellationError() : error)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// On the reaper thread: spawns the child `launch` describes and starts watching it, or
    /// resumes `whenReaped` at once with `CancellationError` or the spawn's error.
    private func start(
        _ launch: ChildLaunch, whenReaped: CheckedContinuation<ProcessResult, any Error>,
        in loop: inout ReaperLoop
    ) {
        guard !launch.isCancelled else {
            whenReaped.resume(throwing: CancellationError())
            return
        }
        let child: ChildProcesses.Child
        do {
            child = try ChildProcesses.spawn(
                arguments: launch.arguments, environment: launch.environment,
                in: launch.workingDirectory, feedingInput: launch.standardInput != nil, programs: programs,
                registry: registry)
        } catch {
            whenReaped.resume(throwing: error)
            return
        }
        let collector = OutputCollector(
            standardOutput: child.standardOutput, standardError: child.standardError,
            outputLimit: launch.outputLimit, errorTailLimit: launch.errorTailLimit, observer: launch.observer)
        let feeder = launch.standardInput.map { InputFeeder(descriptor: child.standardInput, bytes: $0) }
        loop.add(
            WatchedChild(
                child: child, program: launch.arguments[0], collector: collector, feeder: feeder,
                exitDescriptor: pollsExits ? -1 : tg_pidfd_open(child.pid), whenReaped: whenReaped))
        if launch.started(child) {
            terminate(child, gracePeriod: launch.gracePeriod)
        }
    }
}
