/// Runs blocking work one item at a time, in order, on at most one thread of a
/// `BlockingThreadPool` at a time, so a burst of such work (a thousand `exec`s spawning at once)
/// holds one of the pool's threads, not all of them, and the rest of the run's blocking work
/// (loads, saves, decodes) does not queue behind it.
final class SerialLane: Sendable {
    private struct State {
        /// Work not yet run, oldest first.
        var queue: [@Sendable () -> Void] = []
        /// Whether a pool thread is running the queue.
        var isDraining = false
    }

    private let pool: BlockingThreadPool
    private let state = Locked(State())

    /// A lane on `pool`.
    init(on pool: BlockingThreadPool) {
        self.pool = pool
    }

    /// Runs `body` after the work queued before it and returns its result.
    ///
    /// - Throws: `CancellationError`, without running `body`, if the task is already cancelled
    ///   when the work would start; otherwise whatever `body` throws.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingThreadPool.run(body) { self.enqueue($0) }
    }

    private func enqueue(_ work: @escaping @Sendable () -> Void) {
        let startDraining = state.withLock { state in
            state.queue.append(work)
            defer { state.isDraining = true }
            return !state.isDraining
        }
        if startDraining {
            pool.submit { self.drain() }
        }
    }

    /// Runs the queue until it is empty, on the pool thread that took this job.
    private func drain() {
        while let work = state.withLock({ state -> (@Sendable () -> Void)? in
            guard !state.queue.isEmpty else {
                state.isDraining = false
                return nil
            }
            return state.queue.removeFirst()
        }) {
            work()
        }
    }
}
