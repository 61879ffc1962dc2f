/// A graph of actions ready to run: every node knows the nodes it needs.
///
/// Build one in code with `add(_:action:needs:settings:)` (dependencies must be added first, so a
/// graph built this way cannot have a cycle), or let `PipelinePlanner` build one from a pipeline
/// file after validation.
public struct ExecutionGraph: Sendable {
    /// One schedulable unit of work.
    public struct Node: Sendable {
        /// Stable id, e.g. `tilt[lake]`: the same pipeline always gives the same ids.
        public var id: String
        /// The operation type name (e.g. `exec`), for reports; `action` for graphs built in code.
        public var type: String
        /// The work.
        public var action: any TaskAction
        /// Indices of the nodes this one needs, in declaration order.
        public var dependencies: [Int]
        /// Retries, timeout, pool, caching, priority, exclusivity and trigger rule.
        public var settings: NodeSettings
        /// The data the action was made from, when the node comes from a pipeline file: a cache
        /// keys on it, a cluster worker remakes the action from it.
        public var setup: OperationSetup?
        /// Where the operation is declared, when it comes from a pipeline file.
        public var location: SourceLocation?
        /// The dependencies made by files rather than `needs:` (`FileEdges`): for each such
        /// node index among `dependencies`, the absolute path of the file this node reads and
        /// that one writes. (Not kept in a saved plan: only drawings use it.)
        public var fileDependencies: [Int: String] = [:]
        /// Where each parameter's value is written, by name, when the operation comes from a
        /// pipeline file (shared by the instances of one operation; `run --lint` names `inputs:`).
        public var parameterLocations: [String: SourceLocation] = [:]

        /// A node with every field given (a plan read back from a cache).
        package init(
            id: String, type: String, action: any TaskAction, dependencies: [Int], settings: NodeSettings,
            setup: OperationSetup?, location: SourceLocation?
        ) {
            self.id = id
            self.type = type
            self.action = action
            self.dependencies = dependencies
            self.settings = settings
            self.setup = setup
            self.location = location
        }

        /// The dependency chosen explicitly as input, by id.
        public var preferredInputID: String? { setup?.preferredInput }
        /// The checked parameters, when the node comes from a pipeline file (else none).
        public var parameters: Parameters { setup?.parameters ?? Parameters() }
    }

    /// A handle to a node added in code.
    public struct NodeHandle: Hashable, Sendable {
        /// The node's index in `nodes`.
        public let index: Int
    }

    /// Every node, in the order added.
    public private(set) var nodes: [Node] = []
    /// Node indices by id, kept while nodes are added in code; nil for a planned graph, whose ids
    /// the planner made unique and which a run never looks up by id.
    private var indexByID: [String: Int]? = [:]

    /// An empty graph.
    public init() {}

    /// A graph of `nodes`, whose dependencies may point forward: the planner checks cycles first.
    package init(planned nodes: [Node]) {
        self.nodes = nodes
        indexByID = nil
    }

    /// The graph as `report`'s run ran it: with the nodes added while it ran
    /// (`RunReport.addedNodes`), whose records follow the graph's own.
    public func including(_ report: RunReport) -> ExecutionGraph {
        guard !report.addedNodes.isEmpty else { return self }
        return ExecutionGraph(planned: nodes + report.addedNodes)
    }

    /// Whether running the graph adds nodes to it: it has the expansion of a
    /// `foreach: {from: …}` (`FanOutExpansion`), which adds the instances once their items are known.
    public var addsNodesWhileRunning: Bool {
        nodes.contains { $0.type == FanOutExpansion.type }
    }

    /// The index of the node with `id`, if present. (A planned graph has no index: this scans its
    /// nodes.)
    public func index(of id: String) -> Int? {
        indexByID.map { $0[id] } ?? nodes.firstIndex { $0.id == id }
    }

    /// Adds a node that runs `action` after every node in `needs`. An action made from an
    /// `OperationSetup` (a `ConfiguredOperation`: `ConfiguredAction`, `TiltShift`, …) brings
    /// it: the node's type is the setup's, and it is keyed as the same operation in a pipeline
    /// file (the setup's id and dependencies become `id` and those of `needs`).
    /// - Throws: `GraphError.duplicateID` if a node with this id exists.
    @discardableResult
    public mutating func add(
        _ id: String, type: String = "action", action: any TaskAction,
        needs: [NodeHandle] = [], settings: NodeSettings = NodeSettings()
    ) throws -> NodeHandle {
        if indexByID == nil { indexByID = Self.indices(of: nodes) }
        guard indexByID?[id] == nil else { throw GraphError.duplicateID(id) }
        var node = Node(
            id: id, type: type, action: action, dependencies: needs.map(\.index),
            settings: settings, setup: nil, location: nil)
        if let configured = (action as? any ConfiguredOperation)?.configured {
            var setup = configured.setup
            setup.id = id
            setup.dependencies = needs.map { nodes[$0.index].id }
            (node.type, node.action, node.setup) = (setup.type, configured.action, setup)
        }
        return NodeHandle(index: append(node))
    }

    private mutating func append(_ node: Node) -> Int {
        let index = nodes.count
        indexByID?[node.id] = index
        nodes.append(node)
        return index
    }

    private static func indices(of nodes: [Node]) -> [String: Int] {
        var indices = [String: Int](minimumCapacity: nodes.count)
        for (index, node) in nodes.enumerated() { indices[node.id] = index }
        return indices
    }

    /// Dependencies as an adjacency list: an edge from each node to every node it needs.
    package var dependencyList: AdjacencyList {
        AdjacencyList(successors: nodes.map(\.dependencies))
    }

    /// The nodes `name` selects: the instance with that id, or every instance of the
    /// operation it names (`tilt` for `tilt[lake]` and `tilt[sea]`).
    /// - Throws: `GraphError.unknownID`, suggesting an id or operation name, when it selects none.
    public func indices(selecting name: String) throws(GraphError) -> [Int] {
        if let index = index(of: name) { return [index] }
        let instances = nodes.indices.filter { nodes[$0].id.hasPrefix(name + "[") }
        guard instances.isEmpty else { return instances }
        // An operation whose instances a run adds (`foreach: {from: …}`), or one of them: the
        // expansion that adds them.
        let expansions = nodes.indices.filter { (nodes[$0].action as? FanOutExpansion)?.adds(name) == true }
        guard expansions.isEmpty else { return expansions }
        let operations = Set(nodes.map { String($0.id.prefix { $0 != "[" }) })
        throw .unknownID(name, suggestion: Suggestion.closest(to: name, in: operations.union(nodes.map(\.id))))
    }

    /// The subgraph of `ids` (instance ids or operation names) and everything they need,
    /// transitively (for `--only`).
    /// - Throws: `GraphError.unknownID` for a name that selects nothing.
    public func restricted(to ids: [String]) throws -> ExecutionGraph {
        let roots = try ids.flatMap { try indices(selecting: $0) }
        let kept = reachableNodes(from: roots, in: dependencyList)
        var newIndex = [Int: Int](minimumCapacity: kept.count)
        for (position, old) in kept.enumerated() { newIndex[old] = position }
        return ExecutionGraph(
            planned: kept.map { old in
                var node = nodes[old]
                node.dependencies = node.dependencies.compactMap { newIndex[$0] }
                node.fileDependencies = Dictionary(
                    uniqueKeysWithValues: node.fileDependencies.compactMap { old, path in
                        newIndex[old].map { ($0, path) }
                    })
                return node
            })
    }
}
