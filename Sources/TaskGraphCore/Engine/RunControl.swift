/// Pauses and resumes a run from outside, as `OperationQueue.isSuspended` does a queue: a
/// paused run starts no operation, every running child process group is stopped (SIGSTOP) and
/// time limits stop counting; resuming continues the children (SIGCONT) and starts what is
/// ready. Operations that run inside the process go on while paused. Cancelling a paused run
/// cancels it as usual.
///
/// The caller makes one and passes it to `Engine.run`; `pause()` and `resume()` may be called
/// from any thread, before, during or after the run, and never block.
public final class RunControl: Sendable {
    private struct State {
        var isPaused = false
        /// Applies a change to the run under way, if any.
        var apply: (@Sendable (_ paused: Bool) -> Void)?
    }

    private let state = Locked(State())

    /// A control for a run that is not paused.
    public init() {}

    /// Whether the run is paused.
    public var isPaused: Bool { state.withLock { $0.isPaused } }

    /// Pauses the run, if it is not paused.
    public func pause() { setPaused(true) }

    /// Resumes the run, if it is paused.
    public func resume() { setPaused(false) }

    private func setPaused(_ paused: Bool) {
        // Applied under the lock, so that changes reach the run in the order they were made.
        state.withLock { state in
            guard state.isPaused != paused else { return }
            state.isPaused = paused
            state.apply?(paused)
        }
    }

    /// Has `apply` carry out every change while a run is under way, starting with the current
    /// state if paused; `detach()` ends it.
    func attach(_ apply: @escaping @Sendable (_ paused: Bool) -> Void) {
        state.withLock { state in
            state.apply = apply
            if state.isPaused { apply(true) }
        }
    }

    /// Ends what `attach` started: the run is over.
    func detach() {
        state.withLock { $0.apply = nil }
    }
}
