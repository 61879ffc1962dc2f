import Synchronization

/// Enforces attempt time limits for one run with a single ticking loop, instead of one timer
/// per attempt: arming a deadline costs a lock and a dictionary entry, and `run()` wakes every
/// `tick` only while some deadline is armed.
///
/// Starts no task of its own: the engine runs `run()` in the run's task group and cancels it when
/// the run ends (swift-service-lifecycle's rule), so nothing outlives the run.
final class TimeoutWatchdog: Sendable {
    private struct Entry {
        var deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        /// Whether `run()` is ticking (or has been woken to tick).
        var ticking = false
        /// When the run was paused, while it is: no deadline fires, and on resuming every
        /// deadline moves by the time paused.
        var pausedAt: ContinuousClock.Instant?
    }

    /// How often armed deadlines are checked; limits fire at most this late.
    let tick: Duration
    private let state = Locked(State())
    /// Attempts that ran past their deadline: their nodes have ended, they have not yet.
    private let abandoned = Locked<[Task<Void, Never>]>([])
    /// Wakes `run()` when the first deadline is armed while it is idle.
    private let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init(tick: Duration = .milliseconds(10)) {
        self.tick = tick
        (wakeUps, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Calls `expire` once `limit` has passed, unless `disarm` is called first (while `run()` is
    /// running: a deadline armed after the run ended never fires).
    /// - Returns: the id to disarm with.
    func arm(after limit: Duration, expire: @escaping @Sendable () -> Void) -> Int {
        let (id, wakeTicker) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(deadline: (state.pausedAt ?? .now) + limit, expire: expire)
            defer { state.ticking = true }
            return (id, !state.ticking)
        }
        if wakeTicker { wake.yield() }
        return id
    }

    /// Forgets deadline `id` (its attempt ended first).
    func disarm(_ id: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Keeps `attempt`, which ran past its deadline and was cancelled, until
    /// `waitForAbandonedAttempts` waits for it: its node has ended, but what it holds of the run
    /// (threads, children, files) is the run's until it returns.
    func abandon(_ attempt: Task<Void, Never>) {
        abandoned.withLock { $0.append(attempt) }
    }

    /// Returns once every attempt abandoned so far has returned.
    func waitForAbandonedAttempts() async {
        for attempt in abandoned.withLock({ $0 }) {
            await attempt.value
        }
    }

    /// Stops the clock of every deadline: time paused does not count against a limit.
    func pause() {
        state.withLock { state in
            if state.pausedAt == nil { state.pausedAt = .now }
        }
    }

    /// Starts the clocks again, moving every deadline by the time paused.
    func resume() {
        let wakeTicker = state.withLock { state in
            guard let pausedAt = state.pausedAt else { return false }
            let paused = ContinuousClock.now - pausedAt
            for id in state.entries.keys { state.entries[id]?.deadline += paused }
            state.pausedAt = nil
            defer { state.ticking = state.ticking || !state.entries.isEmpty }
            return !state.ticking && !state.entries.isEmpty
        }
        if wakeTicker { wake.yield() }
    }

    /// Fires expired deadlines, every `tick` while some are armed, idle otherwise. Returns when
    /// the calling task is cancelled.
    func run() async {
        for await _ in wakeUps {
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                if !fireExpired() { break }
            }
        }
    }

    /// Calls the deadlines that have passed and forgets them.
    /// - Returns: whether deadlines are still armed (keep ticking).
    private func fireExpired() -> Bool {
        let now = ContinuousClock.now
        let (expired, keepTicking) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
            // Paused: idle until `resume()` wakes the loop again.
            guard state.pausedAt == nil else {
                state.ticking = false
                return ([], false)
            }
            let expired = state.entries.filter { $0.value.deadline <= now }
            for id in expired.keys { state.entries.removeValue(forKey: id) }
            state.ticking = !state.entries.isEmpty
            return (expired.values.map(\.expire), state.ticking)
        }
        for expire in expired { expire() }
        return keepTicking
    }
}
