/// A graph laid out for running: the graph's nodes (shared with it, not copied) and its edges in
/// both directions as compact adjacency lists, so the scheduler's hot path walks flat arrays of
/// 32-bit indices.
struct RunPlan: Sendable {
    /// Every node, in graph order.
    let nodes: [ExecutionGraph.Node]
    /// Edges from each node to the nodes it needs.
    let dependencies: AdjacencyList
    /// Edges from each node to the nodes that need it.
    let dependents: AdjacencyList

    init(_ graph: ExecutionGraph) {
        self.init(nodes: graph.nodes)
    }

    private init(nodes: [ExecutionGraph.Node]) {
        self.nodes = nodes
        dependencies = AdjacencyList(
            successors: nodes.withUnsafeBufferPointer { nodes in
                nodes.indices.map { nodes[$0].dependencies }
            })
        dependents = dependencies.reversed()
    }

    /// The plan with `added` appended (their dependencies are indices in the new plan) and the
    /// `extraNeeds` appended to the dependencies of those nodes. Linear in the size of the plan:
    /// meant for batches (a fan-out adds all its instances at once), not for one node at a time.
    func adding(_ added: [ExecutionGraph.Node], extraNeeds: [(node: Int, needs: [Int])]) -> RunPlan {
        var all = nodes
        all += added
        for (node, needs) in extraNeeds { all[node].dependencies += needs }
        return RunPlan(nodes: all)
    }

    /// How many nodes there are.
    var count: Int { nodes.count }

    /// The id of `node`.
    func id(of node: Int) -> String { read(node) { $0.pointee.id } }

    /// A dependency's result as the action sees it.
    func input(from result: RunState.Input) -> TaskContext.Input {
        TaskContext.Input(id: id(of: Int(result.node)), result: result.value)
    }

    /// Reads fields of `node` in place (`$0.pointee.field`): `nodes[node].field` copies the
    /// whole node (parameters included) first, which costs more than scheduling it.
    func read<Value>(_ node: Int, _ body: (UnsafePointer<ExecutionGraph.Node>) -> Value) -> Value {
        nodes.withUnsafeBufferPointer { body($0.baseAddress! + node) }
    }
}
