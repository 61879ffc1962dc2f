import TaskGraphCore

/// Attempts waiting for `sbatch`, shared by the attempts that add them and the executor's
/// submitter, which takes all of them at once (to submit those with the same options as one job
/// array). Every method takes the lock briefly and never blocks.
final class SubmissionQueue: Sendable {
    /// An attempt's job file, waiting to be submitted.
    struct Request: Sendable {
        /// Its file names' stem in the job directory, e.g. `job-3`.
        var name: String
        /// What the worker is given: the job file's path, or what the run's exchange published
        /// the job as.
        var reference: String
        /// Its `sbatch` resource options (`SbatchCommand.options(for:)`).
        var options: [String]
        /// Resumed with the job's id and its log's path once submitted, or with the failure.
        var continuation: CheckedContinuation<(id: String, log: String), any Error>
    }

    private struct State: ~Copyable {
        var requests: [Request] = []
        /// The submitter, waiting for a request.
        var waiter: CheckedContinuation<Void, Never>?
        /// Whether the submitter has ended: requests fail at once.
        var closed = false
    }

    private let state = Locked(State())

    /// Queues `request` for the submitter; fails it at once if the submitter has ended.
    func add(_ request: Request) {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.closed else { return (false, nil) }
            state.requests.append(request)
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        guard accepted else { return request.continuation.resume(throwing: CancellationError()) }
        waiter?.resume()
    }

    /// Waits until requests are queued and takes them all, in the order they came; empty once
    /// the task is cancelled.
    func take() async -> [Request] {
        while !Task.isCancelled {
            let taken = state.withLock { state in
                defer { state.requests = [] }
                return state.requests
            }
            if !taken.isEmpty { return taken }
            await withTaskCancellationHandler {
                await withCheckedContinuation { waiter in
                    // Checked under the lock: a cancellation either came before (resume now) or
                    // finds the waiter stored (and resumes it).
                    let now = state.withLock { state -> Bool in
                        guard state.requests.isEmpty, !Task.isCancelled else { return true }
                        state.waiter = waiter
                        return false
                    }
                    if now { waiter.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }
        return []
    }

    /// The submitter has ended: fails every request queued and every later one.
    func close() {
        let left = state.withLock { state in
            state.closed = true
            defer { state.requests = [] }
            return state.requests
        }
        for request in left { request.continuation.resume(throwing: CancellationError()) }
    }
}
