/// Something that happened during a run. Live displays, JSON event logs and traces are all
/// consumers of this one stream.
public struct EngineEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// The run started with this many nodes.
        case runStarted(nodeCount: Int)
        /// Nodes were added to the run under way (`RunHandle`, a fan-out's instances): they are
        /// nodes `first ..< first + nodes.count` of the events that follow.
        case nodesAdded(first: Int, nodes: [ExecutionGraph.Node])
        /// A node's dependencies all succeeded: it waits for a free slot in its pool.
        case nodeQueued(node: Int)
        /// Whether a node's result is reused from the store, and why: before it starts, or
        /// before it finishes as `cached`.
        case nodeCacheDecided(node: Int, CacheDecision)
        /// Something went wrong that does not fail the run (the store could not take a result).
        case warning(node: Int?, message: String)
        /// A node's attempt started on a worker lane (lanes number the concurrent slots from 0).
        case nodeStarted(node: Int, attempt: Int, lane: Int)
        /// A running node reported progress or a log line.
        case nodeProgress(node: Int, ProgressUpdate)
        /// A node's attempt failed and it will be retried after `delay`.
        case nodeRetrying(node: Int, attempt: Int, message: String, delay: Duration)
        /// A node ended (any outcome, including skipped and not started).
        case nodeFinished(node: Int, outcome: NodeOutcome)
        /// The run was paused (`RunControl`): nothing starts, child processes are stopped.
        case runPaused
        /// The run resumed after a pause.
        case runResumed
        /// The run ended.
        case runFinished(RunReport)
    }

    /// Time since the run started.
    public var elapsed: Duration
    /// What happened.
    public var kind: Kind
    /// With `nodeFinished`: what the node's attempts used, when it ran and it was measured.
    public var usage: ResourceUsage? = nil
}

/// Receives engine events. Called synchronously from the engine's workers: keep it quick and
/// thread-safe (hand work to your own task or queue if it is slow).
public protocol EventSink: Sendable {
    /// Handles one event.
    func receive(_ event: EngineEvent)

    /// Handles the nodes a run reused before its workers started, at `elapsed`: each unchanged
    /// since the last run with all it needs (`RunCache.settledAtStart`), listed after the nodes
    /// it needs. By default, each node's events in turn: queued, its cache decision (a hit,
    /// unchanged) and its end (cached); a sink may take them all at once instead.
    func receiveSettled(_ nodes: [Int], elapsed: Duration)
}

extension EventSink {
    public func receiveSettled(_ nodes: [Int], elapsed: Duration) {
        for node in nodes {
            receive(EngineEvent(elapsed: elapsed, kind: .nodeQueued(node: node)))
            receive(EngineEvent(elapsed: elapsed, kind: .nodeCacheDecided(node: node, CacheDecision(.hit, .unchanged))))
            receive(EngineEvent(elapsed: elapsed, kind: .nodeFinished(node: node, outcome: .cached)))
        }
    }
}
