/// An operation that takes its items from another's result (`foreach: {from: index}`) as it is
/// before its instances exist: what `graph` draws as one node, `download[*]`.
public struct FanOutTemplate: Sendable, Equatable {
    /// The operation's id (`download`).
    public let operation: String
    /// Its operation type (`download`).
    public let type: String
    /// The operation whose result lists the items (`index`).
    public let source: String
    /// The operations it needs, by id: templates of the same source or operations of the graph.
    public let needs: [String]
    /// The operations outside the templates that need it (fan-ins), by id.
    public let neededBy: [String]
}

extension ExecutionGraph {
    /// The templates whose instances the node `index` adds once its source has run (the
    /// expansion `index[*]`), in declaration order; empty for any other node.
    public func fanOutTemplates(addedBy index: Int) -> [FanOutTemplate] {
        (nodes[index].action as? FanOutExpansion)?.templates ?? []
    }
}

extension FanOutExpansion {
    /// The operations it adds the instances of, as templates.
    var templates: [FanOutTemplate] {
        let fed = Set(operations)
        return operations.map { operation in
            let id = spec.operations[operation].id.value
            let neededBy = spec.operations.indices.filter { other in
                !fed.contains(other) && spec.operations[other].needs.contains { $0.value == id }
            }
            return FanOutTemplate(
                operation: id, type: spec.operations[operation].type?.value ?? "", source: source,
                needs: spec.operations[operation].needs.map(\.value),
                neededBy: neededBy.map { spec.operations[$0].id.value })
        }
    }
}
