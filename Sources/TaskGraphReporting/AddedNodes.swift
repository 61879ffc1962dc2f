import TaskGraphCore

/// The nodes a run added while it ran (`EngineEvent.Kind.nodesAdded`: a fan-out's instances,
/// `RunHandle.add`), for event sinks made from the graph the run started with.
final class AddedNodes: Sendable {
    /// How many nodes the run started with: added nodes come after them.
    let first: Int
    /// Each addition's first index and nodes, in the order they were added: the event's array
    /// itself, shared rather than copied node by node (a fan-out adds thousands at once, under
    /// the run's lock).
    private let batches = Locked<[(start: Int, nodes: [ExecutionGraph.Node])]>([])

    /// No added node yet, after the nodes of `graph`.
    init(after graph: ExecutionGraph) {
        first = graph.nodes.count
    }

    /// Takes the nodes `event` adds, if it adds any.
    func receive(_ kind: EngineEvent.Kind) {
        guard case .nodesAdded(let start, let added) = kind else { return }
        batches.withLock { $0.append((start, added)) }
    }

    /// The id, operation type, pool and dependencies of the added node `index`.
    subscript(index: Int) -> (id: String, type: String, pool: String?, needs: [Int]) {
        batches.withLock { batches in
            guard let batch = batches.last(where: { $0.start <= index }), index - batch.start < batch.nodes.count else {
                return ("#\(index)", "", nil, [])
            }
            return batch.nodes.withUnsafeBufferPointer { nodes in
                let node = nodes.baseAddress! + (index - batch.start)
                return (node.pointee.id, node.pointee.type, node.pointee.settings.pool, node.pointee.dependencies)
            }
        }
    }
}
