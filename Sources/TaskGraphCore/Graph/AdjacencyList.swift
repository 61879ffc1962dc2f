/// Directed graph over nodes `0..<nodeCount` in compressed sparse row (CSR) form.
///
/// The successors of node `i` are `targets[offsets[i] ..< offsets[i + 1]]`. Indices are stored as
/// `Int32` to halve memory traffic, so a graph holds fewer than `Int32.max` nodes and edges.
/// Parallel edges and self-loops are allowed and preserved.
package struct AdjacencyList: Sendable, Equatable {
    /// Start of each node's successor range in `targets`; `nodeCount + 1` entries, the last being
    /// `edgeCount`.
    let offsets: [Int32]
    /// Edge targets, grouped by source node.
    let targets: [Int32]

    /// Number of nodes in the graph.
    var nodeCount: Int { offsets.count - 1 }

    /// Number of edges in the graph, counting parallel edges separately.
    var edgeCount: Int { targets.count }

    /// Builds a graph from an edge list.
    ///
    /// Edges leaving the same source keep the order in which they were given (stable counting
    /// sort, linear time).
    /// - Parameters:
    ///   - nodeCount: Number of nodes; every edge endpoint must lie in `0..<nodeCount`.
    ///   - edges: The directed edges.
    package init(nodeCount: Int, edges: [(from: Int, to: Int)]) {
        self.init(nodeCount: nodeCount, edgeCount: edges.count) { visit in
            for edge in edges {
                visit(edge.from, edge.to)
            }
        }
    }

    /// Builds a graph whose node `i` has the successors `successors[i]`, in the given order.
    /// - Parameter successors: One successor list per node; every entry must be a valid node index.
    init(successors: [[Int]]) {
        let edgeCount = successors.reduce(0) { $0 + $1.count }
        self.init(nodeCount: successors.count, edgeCount: edgeCount) { visit in
            for (source, nodeSuccessors) in successors.enumerated() {
                for target in nodeSuccessors {
                    visit(source, target)
                }
            }
        }
    }

    /// Builds the CSR arrays with a stable counting sort over the edges.
    /// - Parameters:
    ///   - nodeCount: Number of nodes.
    ///   - edgeCount: Exact number of edges `enumerateEdges` reports.
    ///   - enumerateEdges: Reports every edge as `visit(from, to)`, in the same order on each call;
    ///     it is called twice.
    private init(
        nodeCount: Int,
        edgeCount: Int,
        enumerateEdges: (_ visit: (_ from: Int, _ to: Int) -> Void) -> Void
    ) {
        precondition(nodeCount >= 0 && nodeCount < Int(Int32.max), "Node count out of range")
        precondition(edgeCount <= Int(Int32.max), "Too many edges")
        var offsets = [Int32](repeating: 0, count: nodeCount + 1)
        enumerateEdges { from, to in
            precondition(from >= 0 && from < nodeCount, "Edge source \(from) out of range")
            precondition(to >= 0 && to < nodeCount, "Edge target \(to) out of range")
            offsets[from + 1] += 1
        }
        for node in 0..<nodeCount {
            offsets[node + 1] += offsets[node]
        }
        var nextSlot = offsets
        var targets = [Int32](repeating: 0, count: edgeCount)
        enumerateEdges { from, to in
            targets[Int(nextSlot[from])] = Int32(to)
            nextSlot[from] += 1
        }
        self.offsets = offsets
        self.targets = targets
    }

    /// Creates a graph directly from CSR arrays that are already consistent.
    /// - Parameters:
    ///   - offsets: `nodeCount + 1` non-decreasing offsets starting at 0 and ending at
    ///     `targets.count`.
    ///   - targets: Edge targets grouped by source node.
    private init(offsets: [Int32], targets: [Int32]) {
        self.offsets = offsets
        self.targets = targets
    }

    /// The successors of `node`, in the order they were given.
    /// - Parameter node: A node index in `0..<nodeCount`.
    /// - Returns: A slice of `targets`; its indices are edge positions, not zero-based.
    func successors(of node: Int) -> ArraySlice<Int32> {
        targets[Int(offsets[node])..<Int(offsets[node + 1])]
    }

    /// Where the successors of `node` are: walk them with `successor(at:)`. For hot loops that
    /// several threads run at once, where a slice's retain and release of the shared storage
    /// would cost more than the loop.
    func successorPositions(of node: Int) -> Range<Int> {
        Int(offsets[node])..<Int(offsets[node + 1])
    }

    /// The successor at `position` (one of `successorPositions(of:)`).
    func successor(at position: Int) -> Int {
        Int(targets[position])
    }

    /// The graph with every edge flipped, so successors become predecessors.
    ///
    /// Stable: for each node, its new successors (the old predecessors) appear in ascending
    /// order, parallel edges included. Reversing twice therefore sorts every successor list.
    /// - Returns: The transposed graph, built in linear time.
    func reversed() -> AdjacencyList {
        var reversedOffsets = [Int32](repeating: 0, count: offsets.count)
        for target in targets {
            reversedOffsets[Int(target) + 1] += 1
        }
        for node in 0..<nodeCount {
            reversedOffsets[node + 1] += reversedOffsets[node]
        }
        var nextSlot = reversedOffsets
        var reversedTargets = [Int32](repeating: 0, count: targets.count)
        for source in 0..<nodeCount {
            for position in Int(offsets[source])..<Int(offsets[source + 1]) {
                let target = Int(targets[position])
                reversedTargets[Int(nextSlot[target])] = Int32(source)
                nextSlot[target] += 1
            }
        }
        return AdjacencyList(offsets: reversedOffsets, targets: reversedTargets)
    }
}
