import TaskGraphCore

/// The nodes a run added while it ran (`EngineEvent.Kind.nodesAdded`: a fan-out's instances,
/// `RunHandle.add`), for event sinks made from the graph the run started with.
final class AddedNodes: Sendable {
    /// How many nodes the run started with: added nodes come after them.
    let first: Int
    private let nodes = Locked<[Int: (id: String, type: String, pool: String?, needs: [Int])]>([:])

    /// No added node yet, after the nodes of `graph`.
    init(after graph: ExecutionGraph) {
        first = graph.nodes.count
    }

    /// Takes the nodes `event` adds, if it adds any.
    func receive(_ kind: EngineEvent.Kind) {
        guard case .nodesAdded(let start, let added) = kind else { return }
        nodes.withLock { nodes in
            for (offset, node) in added.enumerated() {
                nodes[start + offset] = (node.id, node.type, node.settings.pool, node.dependencies)
            }
        }
    }

    /// The id, operation type, pool and dependencies of the added node `index`.
    subscript(index: Int) -> (id: String, type: String, pool: String?, needs: [Int]) {
        nodes.withLock { $0[index] ?? ("#\(index)", "", nil, []) }
    }
}
