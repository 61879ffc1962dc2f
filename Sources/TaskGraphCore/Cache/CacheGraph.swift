/// A run's graph as its cache reads it: the nodes (shared with the graph, not copied) and their
/// edges in both directions. The engine hands it over when a run begins (`RunCache.begin`), so
/// the cache reads no layout of the engine's.
struct CacheGraph: Sendable {
    /// Every node, in graph order.
    let nodes: [ExecutionGraph.Node]
    /// Edges from each node to the nodes it needs.
    let dependencies: AdjacencyList
    /// Edges from each node to the nodes that need it.
    let dependents: AdjacencyList

    /// The graph of `nodes` with its edges laid out already.
    init(nodes: [ExecutionGraph.Node], dependencies: AdjacencyList, dependents: AdjacencyList) {
        self.nodes = nodes
        self.dependencies = dependencies
        self.dependents = dependents
    }

    /// The graph of `graph`, for a cache used without a run (`RunCache.explain`).
    init(_ graph: ExecutionGraph) {
        let nodes = graph.nodes
        let dependencies = AdjacencyList(successors: nodes.map(\.dependencies))
        self.init(nodes: nodes, dependencies: dependencies, dependents: dependencies.reversed())
    }

    /// How many nodes there are.
    var count: Int { nodes.count }

    /// The id of `node`.
    func id(of node: Int) -> String { read(node) { $0.pointee.id } }

    /// The nodes `node` needs, in declared order.
    func dependencies(of node: Int) -> [Int] { dependencies.successors(of: node).map(Int.init) }

    /// Reads fields of `node` in place (`$0.pointee.field`), without copying the whole node.
    func read<Value>(_ node: Int, _ body: (UnsafePointer<ExecutionGraph.Node>) -> Value) -> Value {
        nodes.withUnsafeBufferPointer { body($0.baseAddress! + node) }
    }
}
