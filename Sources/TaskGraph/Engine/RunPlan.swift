/// A graph laid out for running: one array per node property, built in one pass, so the hot
/// path reads the one field it needs instead of copying whole nodes.
struct RunPlan: Sendable {
    let ids: [String]
    let types: [String]
    let actions: [any TaskAction]
    let settings: [NodeSettings]
    let preferredInputIDs: [String?]
    /// Edges from each node to the nodes it needs.
    let dependencies: AdjacencyList
    /// Edges from each node to the nodes that need it.
    let dependents: AdjacencyList

    init(_ graph: ExecutionGraph) {
        var ids: [String] = [], types: [String] = [], actions: [any TaskAction] = []
        var settings: [NodeSettings] = [], preferred: [String?] = [], dependencies: [[Int]] = []
        let count = graph.nodes.count
        ids.reserveCapacity(count)
        types.reserveCapacity(count)
        actions.reserveCapacity(count)
        settings.reserveCapacity(count)
        preferred.reserveCapacity(count)
        dependencies.reserveCapacity(count)
        for node in graph.nodes {
            ids.append(node.id)
            types.append(node.type)
            actions.append(node.action)
            settings.append(node.settings)
            preferred.append(node.preferredInputID)
            dependencies.append(node.dependencies)
        }
        self.ids = ids
        self.types = types
        self.actions = actions
        self.settings = settings
        preferredInputIDs = preferred
        self.dependencies = AdjacencyList(successors: dependencies)
        dependents = self.dependencies.reversed()
    }

    /// How many nodes there are.
    var count: Int { ids.count }
}
