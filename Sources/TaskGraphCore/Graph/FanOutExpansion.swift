import Foundation

/// The node that expands the `foreach: {from: source}` operations of a pipeline once `source`
/// has run (id `source[*]`): it reads the items from `source`'s result (`ResultItems`), plans
/// their instances with the rest of the pipeline, and adds them to the run under way
/// (`RunHandle`), with the edges from the operations that need them (fan-ins, which need this
/// node until then). Runs every time: the instances it adds are keyed by their items' values,
/// so unchanged items reuse their results.
struct FanOutExpansion: TaskAction {
    /// The node type of expansions.
    static let type = "fan-out"

    /// The operation whose result lists the items.
    let source: String
    /// The operations fed by `source` (indices in `spec.operations`).
    let operations: [Int]
    /// The pipeline, to plan the instances in.
    let spec: PipelineSpec
    /// How the pipeline was planned.
    let planner: PipelinePlanner

    /// Whether it adds the instances of the operation `name`, or the instance `name`
    /// (`download[sunset]`, if the items have it).
    func adds(_ name: String) -> Bool {
        let operation = name.firstIndex(of: "[").map { String(name[..<$0]) } ?? name
        return operations.contains { spec.operations[$0].id.value == operation }
    }

    func run(in context: TaskContext) async throws -> any OperationResult {
        guard let handle = RunHandle.current else { throw FanOutError.notExpandable(source: source) }
        guard let input = context.inputs.first(where: { $0.id == source }),
            let bytes = input.result as? any BytesProvider
        else { throw FanOutError.notText(source: source) }
        let data = try await bytes.data
        var expanded = spec
        var newIDs: Set<String> = []
        for operation in operations {
            let from = spec.operations[operation].foreach!.from!
            let items = try ResultItems(source: source, idField: from.idField).items(of: data)
            try checkFields(of: items, usedBy: operation)
            let id = spec.operations[operation].id.value
            for item in items { newIDs.insert("\(id)[\(item.id)]") }
            expanded.operations[operation].foreach = ForeachSpec(
                kind: .single(.items(items)), location: from.operation.location)
        }
        let planned = planner.plan(expanded)
        guard let graph = planned.graph else {
            throw FanOutError.invalidInstances(
                source: source, errors: planned.diagnostics.filter { $0.severity == .error }.map(\.message))
        }
        let (nodes, extraNeeds) = Self.additions(of: graph, newIDs: newIDs)
        try handle.add(nodes, extraNeeds: extraNeeds)
        return EmptyResult()
    }

    /// Every field `${item.field}` in the parameters of `operation` must be in every item.
    private func checkFields(of items: [ForeachItem], usedBy operation: Int) throws(FanOutError) {
        let fields = ItemFields.used(in: spec.operations[operation].parameters)
        guard !fields.isEmpty else { return }
        for (offset, item) in items.enumerated() {
            for field in fields where item.fields[field] == nil {
                throw .missingField(
                    source: source, position: offset + 1, id: item.id, field: field,
                    operation: spec.operations[operation].id.value)
            }
        }
    }

    /// The nodes of `graph` in `newIDs`, each after the new nodes it needs, with the ids it needs;
    /// and the other nodes that need some of them.
    static func additions(
        of graph: ExecutionGraph, newIDs: Set<String>
    ) -> (nodes: [(node: ExecutionGraph.Node, needs: [String])], extraNeeds: [(id: String, needs: [String])]) {
        let nodes = graph.nodes
        let isNew = nodes.map { newIDs.contains($0.id) }
        var order: [Int] = []
        var placed = [Bool](repeating: false, count: nodes.count)
        for start in nodes.indices where isNew[start] && !placed[start] {
            // Depth first, dependencies before dependents, without recursion.
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            placed[start] = true
            while let (node, next) = stack.last {
                let dependencies = nodes[node].dependencies
                if next < dependencies.count {
                    stack[stack.count - 1].next += 1
                    let dependency = dependencies[next]
                    if isNew[dependency], !placed[dependency] {
                        placed[dependency] = true
                        stack.append((dependency, 0))
                    }
                } else {
                    order.append(node)
                    stack.removeLast()
                }
            }
        }
        let added = order.map { index in (node: nodes[index], needs: nodes[index].dependencies.map { nodes[$0].id }) }
        let extraNeeds = nodes.indices.compactMap { index -> (id: String, needs: [String])? in
            guard !isNew[index] else { return nil }
            let needs = nodes[index].dependencies.filter { isNew[$0] }.map { nodes[$0].id }
            return needs.isEmpty ? nil : (nodes[index].id, needs)
        }
        return (added, extraNeeds)
    }
}
