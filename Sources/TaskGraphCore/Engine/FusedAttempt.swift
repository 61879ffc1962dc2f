/// What the attempts of one fused node learn while they run: the last status its job reported
/// (for the nodes after it, which take their completions from the same job) and the record of
/// its result.
final class FusedAttempt: Sendable {
    private let state = Locked<(status: RemoteJobStatus?, record: ActionRecord?)>((nil, nil))

    /// The last job status reported through a context from `watching(_:)`.
    var status: RemoteJobStatus? { state.withLock { $0.status } }
    /// The record of the result, once an attempt succeeded.
    var record: ActionRecord? {
        get { state.withLock { $0.record } }
        set { state.withLock { $0.record = newValue } }
    }

    /// `context` reporting through this attempt too.
    func watching(_ context: TaskContext) -> TaskContext {
        TaskContext(
            id: context.id, attempt: context.attempt, inputs: context.inputs,
            preferredInputID: context.preferredInputID,
            resources: context.resources,
            progressHandler: { [self] update in
                if let remote = update.remote { state.withLock { $0.status = remote } }
                context.progressHandler?(update)
            })
    }
}
