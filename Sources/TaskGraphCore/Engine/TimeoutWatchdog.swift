import Synchronization

/// Enforces attempt time limits for one run with a single ticking task, instead of one timer
/// per attempt: arming a deadline costs a lock and a dictionary entry, and the ticker wakes
/// every `tick` only while some deadline is armed.
final class TimeoutWatchdog: Sendable {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        var ticking = false
    }

    /// How often armed deadlines are checked; limits fire at most this late.
    let tick: Duration
    private let state = Locked(State())

    init(tick: Duration = .milliseconds(10)) {
        self.tick = tick
    }

    /// Calls `expire` once `limit` has passed, unless `disarm` is called first.
    /// - Returns: the id to disarm with.
    func arm(after limit: Duration, expire: @escaping @Sendable () -> Void) -> Int {
        let (id, startTicker) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(deadline: .now + limit, expire: expire)
            defer { state.ticking = true }
            return (id, !state.ticking)
        }
        if startTicker { Task { await self.runTicker() } }
        return id
    }

    /// Forgets deadline `id` (its attempt ended first).
    func disarm(_ id: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    private func runTicker() async {
        while true {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let (expired, keepTicking) = state.withLock { state in
                let expired = state.entries.filter { $0.value.deadline <= now }
                for id in expired.keys { state.entries.removeValue(forKey: id) }
                state.ticking = !state.entries.isEmpty
                return (expired.values.map(\.expire), state.ticking)
            }
            for expire in expired { expire() }
            if !keepTicking { return }
        }
    }
}
