/// The static side of `foreach: {from: source}`: checks what can be checked before `source`
/// runs, and adds to the graph one expansion node per source (`source[*]`, a
/// `FanOutExpansion`) that needs `source` and that the operations needing its instances need
/// until the instances exist.
struct FanOutPlan {
    /// The `foreach: {from: …}` operations (indices) by the operation they take items from.
    let operationsBySource: [(source: Int, operations: [Int])]

    init(_ spec: PipelineSpec, _ declared: DeclaredOperations) {
        var bySource: [Int: [Int]] = [:]
        for index in spec.operations.indices {
            guard let from = spec.operations[index].foreach?.from, let source = declared.index[from.operation.value]
            else { continue }
            bySource[source, default: []].append(index)
        }
        operationsBySource = bySource.keys.sorted().map { ($0, bySource[$0]!) }
    }

    /// Errors of `from:`: it names an operation that exists and has no `foreach`, that does not
    /// need (directly or not) the operations taking items from it; an operation taking items
    /// from one source needs no operation taking them from another.
    static func check(_ spec: PipelineSpec, _ declared: DeclaredOperations, diagnostics: inout [Diagnostic]) {
        for index in spec.operations.indices {
            guard let from = spec.operations[index].foreach?.from else { continue }
            let id = spec.operations[index].id.value
            let name = from.operation.value
            guard let source = declared.index[name] else {
                diagnostics.append(
                    .error(
                        "operation '\(id)': 'foreach' takes items from '\(name)', which does not exist"
                            + Suggestion.clause(for: name, in: declared.ids),
                        at: from.operation.location))
                continue
            }
            if spec.operations[source].foreach != nil {
                diagnostics.append(
                    .error(
                        "operation '\(id)': 'foreach' takes items from '\(name)', which has 'foreach' itself; name an "
                            + "operation without",
                        at: from.operation.location))
            } else if needs(source, reaching: index, declared) {
                diagnostics.append(
                    .error(
                        "operation '\(id)': 'foreach' takes items from '\(name)', which needs '\(id)' (directly or "
                            + "not): a cycle",
                        at: from.operation.location))
            }
            for (need, target) in zip(spec.operations[index].needs, declared.targets(ofNeedsOf: index)) {
                guard let target, let other = spec.operations[target].foreach?.from, other.operation.value != name
                else { continue }
                diagnostics.append(
                    .error(
                        "operation '\(id)' takes items from '\(name)' but needs '\(need.value)', which takes them from "
                            + "'\(other.operation.value)'",
                        at: need.location))
            }
        }
    }

    /// Whether `operation` needs `target`, directly or not.
    private static func needs(_ operation: Int, reaching target: Int, _ declared: DeclaredOperations) -> Bool {
        var seen: Set<Int> = [operation]
        var stack = [operation]
        while let next = stack.popLast() {
            for case let needed? in declared.targets(ofNeedsOf: next) {
                if needed == target { return true }
                if seen.insert(needed).inserted { stack.append(needed) }
            }
        }
        return false
    }

    /// Appends the expansion node of each source to `nodes` (the instances of `expansion`), and
    /// makes every instance of an operation that needs one of the source's operations need it.
    /// The expansion also needs the instances of the other operations the source's operations
    /// need (not those that wait for it): it holds their results until it has added the
    /// instances that need them (`RunState.Growth.adders`).
    func addExpansions(
        to nodes: inout [ExecutionGraph.Node], _ spec: PipelineSpec, _ expansion: InstanceExpansion,
        _ declared: DeclaredOperations, planner: PipelinePlanner
    ) {
        for (source, operations) in operationsBySource {
            guard let sourceNode = expansion.instances.firstIndex(where: { $0.operation == source }) else { continue }
            let sourceID = spec.operations[source].id.value
            let id = "\(sourceID)[*]"
            let fed = Set(operations)
            let node = nodes.count
            for (index, instance) in expansion.instances.enumerated() where !fed.contains(instance.operation) {
                guard declared.targets(ofNeedsOf: instance.operation).contains(where: { $0.map(fed.contains) ?? false })
                else { continue }
                nodes[index].dependencies.append(node)
                nodes[index].setup?.dependencies.append(id)
            }
            let needed = Set(operations.flatMap { declared.targets(ofNeedsOf: $0).compactMap { $0 } }).filter {
                target in
                target != source && !fed.contains(target)
                    && !fed.contains { Self.needs(target, reaching: $0, declared) }
            }
            let held = expansion.instances.indices.filter { needed.contains(expansion.instances[$0].operation) }
            nodes.append(
                ExecutionGraph.Node(
                    id: id, type: FanOutExpansion.type,
                    action: FanOutExpansion(source: sourceID, operations: operations, spec: spec, planner: planner),
                    dependencies: [sourceNode] + held, settings: NodeSettings(), setup: nil,
                    location: spec.operations[operations[0]].foreach?.location))
        }
    }
}
