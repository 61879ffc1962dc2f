import TaskGraphCore

/// The jobs of a run the driver waits for, shared by the attempts that submitted them and the
/// poller that watches the queue. Every method takes the lock briefly and never blocks.
final class SlurmJobTable: Sendable {
    /// A job being waited for.
    struct Waiting {
        /// Its file names' stem in the job directory, e.g. `job-3`.
        var name: String
        /// What its worker was given (`SubmissionQueue.Request.reference`).
        var reference: String
        /// Its log's path (Slurm's `--output`).
        var log: String
        /// Resumed with the job's record or failure.
        var continuation: CheckedContinuation<RemoteCompletion, any Error>
        /// Reports its state changes (the node's progress: a log line and the job's status).
        var report: @Sendable (RemoteJobStatus, String) -> Void
        /// When `sbatch` returned its id.
        var submitted: ContinuousClock.Instant
        /// The same, in seconds since 1970 (to compare with the worker's record).
        var submittedAt: Double
        /// When a query first saw it past waiting (running or ended).
        var started: ContinuousClock.Instant?
        /// Its state in the last query, `SUBMITTED` before the first.
        var state = "SUBMITTED"
        /// Queries in a row that did not list it.
        var missed = 0
    }

    private struct State: ~Copyable {
        var waiting: [String: Waiting] = [:]
        /// Jobs whose attempt was cancelled, to be cancelled by the next `scancel`.
        var toCancel: [String] = []
        /// Jobs whose attempt was cancelled before the job was registered.
        var cancelled: Set<String> = []
        /// Whether a job arrived since the poller last looked.
        var arrived = false
        var counter = 0
        var arrays = 0
        var statistics = SlurmStatistics()
    }

    private let state = Locked(State())

    /// A new name for a job's files.
    func nextName() -> String {
        state.withLock { state in
            state.counter += 1
            return "job-\(state.counter)"
        }
    }

    /// A new name for a job array's files.
    func nextArrayName() -> String {
        state.withLock { state in
            state.arrays += 1
            return "array-\(state.arrays)"
        }
    }

    /// Counts `count` jobs submitted with one `sbatch`.
    func submitted(_ count: Int) {
        state.withLock { state in
            state.statistics.submitted += count
            state.statistics.submissions += 1
        }
    }

    /// Counts a queue query.
    func queried() {
        state.withLock { $0.statistics.queries += 1 }
    }

    /// What the run did so far.
    var statistics: SlurmStatistics { state.withLock { $0.statistics } }

    /// Waits for job `id` through `job.continuation`, unless its attempt was already cancelled.
    func register(_ id: String, _ job: Waiting) {
        let cancelled = state.withLock { state in
            if state.cancelled.remove(id) != nil { return true }
            state.waiting[id] = job
            state.arrived = true
            return false
        }
        if cancelled { job.continuation.resume(throwing: CancellationError()) }
    }

    /// The attempt waiting for job `id` was cancelled: it stops waiting now, and the next
    /// `scancel` includes the job.
    func cancel(_ id: String) {
        let job = state.withLock { state in
            state.toCancel.append(id)
            guard let job = state.waiting.removeValue(forKey: id) else {
                state.cancelled.insert(id)
                return nil as Waiting?
            }
            return job
        }
        job?.continuation.resume(throwing: CancellationError())
    }

    /// The jobs waited for, and the jobs to cancel (taken: the caller cancels them).
    func poll() -> (waiting: [(id: String, job: Waiting)], toCancel: [String]) {
        state.withLock { state in
            let toCancel = state.toCancel
            state.toCancel = []
            return (state.waiting.map { ($0.key, $0.value) }, toCancel)
        }
    }

    /// Whether a job arrived since the last call.
    func takeArrival() -> Bool {
        state.withLock { state in
            defer { state.arrived = false }
            return state.arrived
        }
    }

    /// Records what the last query said of job `id`: its state (nil: not listed). Returns
    /// whether that changed, with the job as it is now.
    func observe(_ id: String, state newState: String?) -> (changed: Bool, job: Waiting)? {
        state.withLock { state in
            guard var job = state.waiting[id] else { return nil }
            var changed = false
            if let newState {
                changed = newState != job.state
                job.state = newState
                job.missed = 0
                if job.started == nil, !QueueSnapshot.waitingStates.contains(newState) { job.started = .now }
            } else {
                job.missed += 1
            }
            state.waiting[id] = job
            return (changed, job)
        }
    }

    /// Ends the wait for job `id` with `result`.
    func finish(_ id: String, with result: Result<RemoteCompletion, any Error>) {
        let job = state.withLock { $0.waiting.removeValue(forKey: id) }
        job?.continuation.resume(with: result)
    }
}

/// What a run asked of Slurm.
public struct SlurmStatistics: Hashable, Sendable {
    /// Jobs submitted (each task of a job array counts).
    public var submitted = 0
    /// `sbatch` calls that returned a job id.
    public var submissions = 0
    /// Queue queries (`squeue` calls).
    public var queries = 0
}
