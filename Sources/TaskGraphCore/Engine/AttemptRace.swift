/// How one attempt under a time limit ended: the first of the attempt's own end and the time it
/// is given to end after its deadline settles it, and the task waiting for the attempt resumes
/// at once; what comes later is dropped. So an action that ignores cancellation cannot hold its
/// node much past the limit: the node ends timed out, and the attempt's late result is discarded
/// (`NodeRunner.runAttempt`).
final class AttemptRace: Sendable {
    private enum State {
        /// Neither settled nor awaited yet.
        case pending
        /// Awaited by `value()`, not settled yet.
        case waiting(CheckedContinuation<any OperationResult, any Error>)
        /// Settled before `value()` was called.
        case settled(Result<any OperationResult, any Error>)
        /// Settled and handed to `value()`.
        case finished
    }

    private let state = Locked(State.pending)

    /// Ends the race with `result`, unless it has ended already (then `result` is dropped).
    func settle(_ result: Result<any OperationResult, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<any OperationResult, any Error>? in
            switch state {
            case .pending:
                state = .settled(result)
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .settled, .finished:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    /// The result that settled the race, once it has; call it once.
    func value() async throws -> any OperationResult {
        try await withCheckedThrowingContinuation { continuation in
            let settled = state.withLock { state -> Result<any OperationResult, any Error>? in
                switch state {
                case .pending:
                    state = .waiting(continuation)
                    return nil
                case .settled(let result):
                    state = .finished
                    return result
                case .waiting, .finished:
                    preconditionFailure("an attempt's race is awaited once")
                }
            }
            if let settled { continuation.resume(with: settled) }
        }
    }
}
