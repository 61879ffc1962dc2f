import Synchronization
import TaskGraphCore

/// The last status of each node's remote job (the final one carries its queue wait and run
/// time), gathered from the run's events for the summary.
public final class RemoteJobLog: EventSink, Sendable {
    private let statuses = Locked<[Int: RemoteJobStatus]>([:])

    /// An empty log.
    public init() {}

    public func receive(_ event: EngineEvent) {
        guard case .nodeProgress(let node, let update) = event.kind, let remote = update.remote else { return }
        statuses.withLock { $0[node] = remote }
    }

    /// Each node's last status, by node index.
    public var lastStatuses: [Int: RemoteJobStatus] { statuses.withLock { $0 } }
}
