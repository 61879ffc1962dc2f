/// Runs operations somewhere other than the taskgraph process, such as on a cluster, through a
/// store both sides reach. Given to a run with `EngineOptions(remote:)` beside a `RunCache`: the engine still
/// computes every key and reuses stored results itself (a hit never leaves the process); each
/// other node the executor accepts is written as a `RemoteJob` (its inputs stored first) and its
/// attempts go to `run(_:context:)`. Retries, time limits (`timeout`), skipping dependents and
/// cancellation work as for local nodes. Nodes it `fuses` that form a linear chain
/// (`FusedChains`) are run as one job.
public protocol RemoteExecutor: Sendable {
    /// Whether a node with `settings` runs through this executor (else in this process).
    func accepts(_ settings: NodeSettings) -> Bool

    /// Whether a node with `settings` that it accepts may share one job with the other nodes
    /// of its linear chain (docs/cluster.md, "Fusion").
    func fuses(_ settings: NodeSettings) -> Bool

    /// Runs one attempt of `job` and returns how it ended: `succeeded` with the record of its
    /// result, which the worker has written to the store (with its blobs), or for a fused
    /// chain's job, `fused` with a first completion that succeeded. Logs state changes through
    /// `context.log`.
    /// - Throws: an error describing the failure (of the job, or of its first operation),
    ///   `CancellationError` when the task is cancelled (after the remote work was asked to stop).
    func run(_ job: RemoteJob, settings: NodeSettings, context: TaskContext) async throws -> RemoteCompletion
}

extension RemoteExecutor {
    /// Nodes that accept it and ask for it with `fuse: true`.
    public func fuses(_ settings: NodeSettings) -> Bool {
        settings.cluster.fuse && accepts(settings)
    }
}
