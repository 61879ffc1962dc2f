/// What happened to every node of a run.
public struct RunReport: Sendable {
    /// One node's record.
    public struct NodeRecord: Sendable {
        /// The node's id.
        public var id: String
        /// The operation type.
        public var type: String
        /// How it ended.
        public var outcome: NodeOutcome
        /// Attempts made (0 if it never started).
        public var attempts: Int
        /// When its first attempt started, from the start of the run.
        public var startTime: Duration?
        /// When it ended, from the start of the run.
        public var endTime: Duration?
        /// The result's summary (e.g. a written path), when it succeeded.
        public var summary: String
        /// What its last attempt threw, when it failed or timed out (`outcome` holds its
        /// description): an `OperationError`, an action's own error, `EngineError.timedOut`; for
        /// a node run in a cluster job, the executor's error, which holds the worker's message
        /// only. Nil for every other outcome.
        public var error: (any Error)? = nil

        /// How long it took from first start to end.
        public var duration: Duration? {
            guard let startTime, let endTime else { return nil }
            return endTime - startTime
        }
    }

    /// Every node, in graph order.
    public var nodes: [NodeRecord]
    /// Wall time of the whole run.
    public var wallTime: Duration
    /// Whether the run was cancelled from outside (e.g. Ctrl-C).
    public var wasCancelled: Bool
    /// The results of nodes nothing else needs (the graph's outputs), by node id.
    public var finalResults: [String: any OperationResult]
    /// The nodes added while the run ran (`RunHandle`, a fan-out's instances), after the graph's
    /// own in `nodes`: `ExecutionGraph.including(_:)` gives the graph as run.
    public var addedNodes: [ExecutionGraph.Node] = []

    /// How many nodes ended each way (kinds no node ended with are absent).
    public var counts: [NodeOutcome.Kind: Int] {
        nodes.reduce(into: [:]) { $0[$1.outcome.kind, default: 0] += 1 }
    }

    /// Whether every node has its result (it ran, or reused a stored one).
    public var succeeded: Bool { nodes.allSatisfy { $0.outcome.kind.isSuccess } }

    /// Whether any node failed or timed out.
    public var hasFailures: Bool { nodes.contains { $0.outcome.isFailure } }
}
