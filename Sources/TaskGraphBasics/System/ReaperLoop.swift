import CSystemShims
import Foundation

/// The state of the reaper thread (`ChildReaper`): the children it watches, the SIGKILLs due
/// after grace periods, and one epoll instance for all their descriptors. Owned by that thread.
struct ReaperLoop {
    /// The epoll instance; the reaper thread closes it when it exits.
    let epoll: Int32
    /// The eventfd that wakes the thread for new commands, watched in `epoll`; the reaper thread
    /// closes it when it exits.
    let wake: Int32
    private let registry: ChildRegistry
    /// The token of `wake` in `epoll`.
    private let wakeToken: UInt64
    /// The children watched, by spawn number.
    private var children: [UInt64: WatchedChild] = [:]
    /// When each cancelled child's group gets SIGKILL, by spawn number.
    private var kills: [UInt64: (child: ChildProcesses.Child, deadline: ContinuousClock.Instant)] = [:]
    /// Scratch space for reading pipes.
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)
    /// The tokens `epoll_wait` reports.
    private var tokens = [UInt64](repeating: 0, count: 64)

    /// A loop for the children of `registry`, with a new epoll instance watching a new eventfd
    /// (`wake`) under `wakeToken`.
    /// - Throws: `ChildProcessError.failedToMonitor` naming the call that failed (EMFILE, ENOMEM);
    ///   nothing is left open then.
    init(registry: ChildRegistry, wakeToken: UInt64) throws(ChildProcessError) {
        epoll = tg_epoll_create()
        guard epoll >= 0 else { throw Self.failure("epoll_create1") }
        wake = tg_eventfd_create()
        guard wake >= 0 else {
            let error = Self.failure("eventfd")
            close(epoll)
            throw error
        }
        guard tg_epoll_add(epoll, wake, wakeToken) == 0 else {
            let error = Self.failure("epoll_ctl")
            close(wake)
            close(epoll)
            throw error
        }
        self.registry = registry
        self.wakeToken = wakeToken
    }

    /// The error for `call`, which has just failed, with the system's reason (read from `errno`
    /// before anything else can change it).
    private static func failure(_ call: String) -> ChildProcessError {
        .failedToMonitor(call: call, reason: ChildProcesses.errorText(errno))
    }

    /// Whether nothing is left to watch or signal.
    var isIdle: Bool { children.isEmpty && kills.isEmpty }

    /// Starts watching a child's pipes (its standard input for room to write) and, with a pidfd,
    /// its exit.
    mutating func add(_ watched: WatchedChild) {
        let token = watched.child.spawnNumber << 2
        tg_epoll_add(epoll, watched.child.standardOutput, token)
        tg_epoll_add(epoll, watched.child.standardError, token | 1)
        var watched = watched
        // Nothing to write, or no way to be told of room: the child reads end of file.
        if watched.feeder != nil, tg_epoll_add_writable(epoll, watched.child.standardInput, token | 3) != 0 {
            watched.feeder!.close(epoll: epoll)
        }
        if watched.exitDescriptor >= 0, tg_epoll_add(epoll, watched.exitDescriptor, token | 2) != 0 {
            // Not watchable (ENOMEM, max_user_watches): poll `waitid` for this child instead.
            close(watched.exitDescriptor)
            watched.exitDescriptor = -1
        }
        children[watched.child.spawnNumber] = watched
    }

    /// Sends SIGKILL to `child`'s group at `deadline`, unless it is reaped first. A child no
    /// longer registered was reaped already (or it would be watched), so nothing is scheduled.
    mutating func scheduleKill(of child: ChildProcesses.Child, at deadline: ContinuousClock.Instant) {
        let number = child.spawnNumber
        guard children[number] != nil || registry.isRegistered(number) else { return }
        if let scheduled = kills[number], scheduled.deadline <= deadline { return }
        kills[number] = (child, deadline)
    }

    /// Waits for output, exits, the next deadline, a wake-up (then calls `drainWakeUp`) or the
    /// end of `limit`, and handles what happened: reads output, notices exits, sends SIGKILLs
    /// due, reaps children that are done.
    mutating func waitAndHandle(pollInterval: Int32, atMost limit: Duration? = nil, drainWakeUp: () -> Void) {
        let count = tg_epoll_wait(
            epoll, &tokens, Int32(tokens.count), timeout(pollInterval: pollInterval, atMost: limit))
        for index in 0..<max(Int(count), 0) {
            let token = tokens[index]
            if token == wakeToken {
                drainWakeUp()
                continue
            }
            let number = token >> 2
            guard children[number] != nil else { continue }
            switch token & 3 {
            case 2: children[number]!.noteLeaderExit(registry: registry, epoll: epoll, now: .now)
            case 3: children[number]!.feeder?.write(epoll: epoll)
            default: children[number]!.collector.read(pipe: Int(token & 3), using: &chunk, epoll: epoll)
            }
        }
        let now = ContinuousClock.now
        for (number, kill) in kills where kill.deadline <= now {
            registry.signalGroup(of: kill.child.spawnNumber, SIGKILL)
            kills[number] = nil
        }
        for (number, watched) in children where !watched.leaderExited {
            if watched.exitDescriptor < 0, children[number]!.hasExitedByPolling() {
                children[number]!.noteLeaderExit(registry: registry, epoll: epoll, now: now)
            }
        }
        for (number, watched) in children where watched.isDone(at: now) {
            children[number] = nil
            kills[number] = nil
            watched.reap(registry: registry, epoll: epoll)
        }
    }

    /// Milliseconds until the earliest deadline (rounded up), at most `pollInterval` while a
    /// child without pidfd runs and at most `limit`; -1 (no limit) when nothing is due.
    private func timeout(pollInterval: Int32, atMost limit: Duration?) -> Int32 {
        let now = ContinuousClock.now
        var deadlines = kills.values.map(\.deadline)
        if let limit { deadlines.append(now + limit) }
        var polling = false
        for watched in children.values {
            if let drainDeadline = watched.drainDeadline {
                deadlines.append(drainDeadline)
            } else if watched.exitDescriptor < 0 {
                polling = true
            }
        }
        var timeout: Int32 = polling ? pollInterval : -1
        if let earliest = deadlines.min() {
            let milliseconds = (earliest - now) / .milliseconds(1)
            let rounded = Int32(clamping: max(0, Int(milliseconds.rounded(.up))))
            timeout = timeout < 0 ? rounded : min(timeout, rounded)
        }
        return timeout
    }
}
