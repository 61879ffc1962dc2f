/// Receives each node's result as the node ends successfully, while the run goes on: a UI shows
/// each photo as soon as it is ready, as a table view updates a cell when its
/// `Operation` finishes.
///
/// A node that ran hands over what its action returned. A node whose result was reused from
/// the store hands over what the engine has of it: the result itself when a dependent needed
/// it read, or else a `StoredResult` naming it (`ResultStore.loadResult` reads it). Called
/// synchronously from the engine's workers, once per node, in the order nodes end: keep it
/// quick and thread-safe.
public protocol ResultSink: Sendable {
    /// Takes the result of the node at `index` (its `ExecutionGraph` index), whose id is `id`.
    func receive(_ result: any OperationResult, of index: Int, id: String)
}

/// A `ResultSink` that keeps every result it receives, by node id: every node's result of a
/// run, where `RunReport.finalResults` holds only those of nodes nothing needs. It keeps each
/// result alive until it is dropped: a run's intermediate images stay in memory with it.
public final class CollectedResults: ResultSink {
    private let results = Locked<[String: any OperationResult]>([:])

    /// An empty collection.
    public init() {}

    public func receive(_ result: any OperationResult, of index: Int, id: String) {
        results.withLock { $0[id] = result }
    }

    /// Every result received so far, by node id.
    public var all: [String: any OperationResult] {
        results.withLock { $0 }
    }
}
