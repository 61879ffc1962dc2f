/// Adds nodes to a run while it runs and cancels single nodes, as `OperationQueue`'s
/// `addOperation` and `Operation.cancel()` do: a scrolling photo table adds the cells that come
/// into view and cancels those that leave it.
///
/// The caller makes one and passes it to `Engine.run`; `add` and `cancel` may be called from any
/// thread (and from the actions of the run itself) while the run is under way, and never block
/// for long. The run ends when every node has ended: add nodes before the last one ends (an
/// action adding its follow-up work does). A run with a handle keeps a worker per slot of each
/// pool whatever its size; a node of a pool the run did not start with runs in the default pool.
/// With a remote executor, an added node that has a setup (a fan-out's
/// instance) runs as a job of its own: fused chains are made when the run starts, of the nodes
/// it started with.
public final class RunHandle: Sendable {
    /// A node to add: its id (unique in the run), what it runs, and the ids of the nodes it
    /// needs (nodes of the run, or earlier nodes of the same batch).
    public struct Node: Sendable {
        public var id: String
        public var type: String
        public var action: any TaskAction
        public var needs: [String]
        public var settings: NodeSettings

        /// A node as `ExecutionGraph.add` takes it, its dependencies by id.
        public init(
            _ id: String, type: String = "action", action: any TaskAction, needs: [String] = [],
            settings: NodeSettings = NodeSettings()
        ) {
            self.id = id
            self.type = type
            self.action = action
            self.needs = needs
            self.settings = settings
        }
    }

    /// The run under way and how its additions reach its events.
    struct Attachment: Sendable {
        let coordinator: RunCoordinator
        /// Reports nodes added (their first index, the nodes) and what adding them changed.
        let announce: @Sendable (RunState.Addition, [ExecutionGraph.Node]) -> Void
    }

    private let attachment = Locked<Attachment?>(nil)

    /// A handle for a run that has not started.
    public init() {}

    /// Adds one node to the run under way.
    /// - Throws: `RunHandleError` (the run is not under way, the id is taken, a needed id is
    ///   unknown, or a needed node ended and its result was let go).
    public func add(
        _ id: String, type: String = "action", action: any TaskAction, needs: [String] = [],
        settings: NodeSettings = NodeSettings()
    ) throws(RunHandleError) {
        try add([Node(id, type: type, action: action, needs: needs, settings: settings)])
    }

    /// Adds a batch of nodes at once (cheaper than one by one: each addition lays the run's
    /// graph out again).
    /// - Throws: `RunHandleError`; then none of the batch is added.
    public func add(_ nodes: [Node]) throws(RunHandleError) {
        try add(
            nodes.map { node in
                (
                    ExecutionGraph.Node(
                        id: node.id, type: node.type, action: node.action, dependencies: [], settings: node.settings,
                        setup: nil, location: nil), node.needs
                )
            })
    }

    /// Adds planned nodes, each with the ids of the nodes it needs, and makes the nodes of
    /// `extraNeeds`, not ready yet, also need some of them: a fan-out's instances and its fan-ins.
    func add(
        _ nodes: [(node: ExecutionGraph.Node, needs: [String])], extraNeeds: [(id: String, needs: [String])] = []
    ) throws(RunHandleError) {
        guard let attached = attachment.withLock({ $0 }) else { throw .runEnded }
        try attached.coordinator.add(nodes, extraNeeds: extraNeeds, announce: attached.announce)
    }

    /// The handle of the run the current task belongs to, if it has one: a fan-out's expansion
    /// adds its instances through it.
    @TaskLocal static var current: RunHandle?

    /// Cancels the node `id` and every node that needs it, directly or not; they end
    /// `.cancelled`. A running node sees cancellation (as when the whole run is cancelled); the
    /// others never start. Nothing happens to a node that has ended.
    /// - Returns: whether the run under way has a node `id`.
    @discardableResult
    public func cancel(_ id: String) -> Bool {
        guard let attached = attachment.withLock({ $0 }), let ended = attached.coordinator.cancel(id) else {
            return false
        }
        attached.announce(RunState.Addition(first: -1, ended: ended.map { ($0, .cancelled) }), [])
        return true
    }

    func attach(_ attached: Attachment) {
        attachment.withLock { $0 = attached }
    }

    func detach() {
        attachment.withLock { $0 = nil }
    }
}
