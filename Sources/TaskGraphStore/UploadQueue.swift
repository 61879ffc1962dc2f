import TaskGraphCore

/// Work run beside the run that enqueued it, at most `limit` at once: uploads to a remote cache.
/// `drain` waits for it at the end of a run, for a bounded time.
final class UploadQueue: Sendable {
    /// One upload.
    typealias Work = @Sendable () async -> Void

    private struct State {
        var pending: [Work] = []
        /// Where the next upload is in `pending`.
        var head = 0
        var active = 0
        var finished = 0
        /// The running workers, by number: each removes itself when it ends.
        var workers: [Int: Task<Void, Never>] = [:]
        var workersStarted = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let limit: Int
    private let state = Locked(State())

    /// A queue running at most `limit` uploads at once.
    init(limit: Int) {
        self.limit = limit
    }

    /// Uploads finished and enqueued so far.
    var progress: (finished: Int, total: Int) { state.withLock { ($0.finished, $0.pending.count) } }

    /// How many workers are listed (to cancel on a timeout): those running.
    var workerCount: Int { state.withLock { $0.workers.count } }

    /// Adds `work`, starting a worker when fewer than `limit` run.
    func enqueue(_ work: @escaping Work) {
        state.withLock { state in
            state.pending.append(work)
            guard state.active < limit else { return }
            state.active += 1
            state.workersStarted += 1
            let number = state.workersStarted
            // Made under the lock, so that it is listed before it can end and remove itself.
            state.workers[number] = Task { await self.runWorker(number) }
        }
    }

    /// Takes uploads until none is left.
    private func runWorker(_ number: Int) async {
        while let work = next(worker: number) {
            await work()
            state.withLock { $0.finished += 1 }
        }
    }

    /// The next upload, or nil after marking worker `number` done (waking `drain` when it was
    /// the last).
    private func next(worker number: Int) -> Work? {
        let (work, waiters) = state.withLock { state -> (Work?, [CheckedContinuation<Void, Never>]) in
            if state.head < state.pending.count {
                state.head += 1
                return (state.pending[state.head - 1], [])
            }
            state.active -= 1
            state.workers[number] = nil
            guard state.active == 0 else { return (nil, []) }
            defer { state.idleWaiters = [] }
            return (nil, state.idleWaiters)
        }
        for waiter in waiters { waiter.resume() }
        return work
    }

    /// Waits until every upload has finished, or `timeout` has passed: then the rest are
    /// dropped and those running cancelled (their requests abort at once).
    /// - Returns: whether every upload finished.
    func drain(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.waitUntilIdle()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let finished = await group.next() ?? true
            if !finished { cancelAll() }
            group.cancelAll()
            await group.waitForAll()
            return finished
        }
    }

    /// Returns once no worker runs.
    private func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                guard state.active > 0 else { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Drops the uploads not started and cancels those running.
    private func cancelAll() {
        let workers = state.withLock { state -> [Task<Void, Never>] in
            state.head = state.pending.count
            return Array(state.workers.values)
        }
        for worker in workers { worker.cancel() }
    }
}
