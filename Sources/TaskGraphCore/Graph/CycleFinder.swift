/// Distinct elementary cycles of `graph`, chosen deterministically so that every edge lying on
/// some cycle appears in at least one reported cycle (until `limit` is reached).
///
/// Strategy: for every strongly connected component, in order of smallest node, take its internal
/// edges in ascending `(from, to)` order. For each edge not yet on a reported cycle, find the
/// shortest cycle through it, i.e. a shortest path from `edge.to` back to `edge.from` restricted
/// to the component; record that cycle and mark all of its edges covered. A self-loop needs no
/// search. The path search is a bidirectional breadth-first search (forward from `edge.to`,
/// backward from `edge.from`, always growing the smaller frontier by one full level, neighbors in
/// ascending order, stopping at the first node reached from both sides), so ties break
/// deterministically and a search in a large random component touches far fewer nodes than a
/// one-sided search would. Each recorded cycle contains an edge that was uncovered, so it never
/// repeats an earlier one, and every search yields a new cycle: the number of searches never
/// exceeds the number of cycles, which stops at `limit`. A simple cycle of any length costs a
/// single search, so a ring of a million nodes is handled in linear time. After one linear
/// Tarjan pass, all work happens on the cyclic core (the nodes and edges inside components that
/// contain a cycle), so acyclic parts of a large graph cost almost nothing extra.
/// - Parameters:
///   - graph: The graph to inspect.
///   - limit: Maximum number of cycles to report, which also bounds the number of searches.
/// - Returns: Cycles as node lists `[a, b, c]` meaning `a -> b -> c -> a`, each rotated to start
///   at its smallest node (a self-loop is `[a]`), sorted by first node and then lexicographically.
package func findCycles(_ graph: AdjacencyList, limit: Int = 100) -> [[Int]] {
    guard limit > 0 else {
        return []
    }
    let core = CyclicCore(graph)
    // Successor and predecessor lists of the core, both in ascending order.
    let predecessors = core.graph.reversed()
    let successors = predecessors.reversed()
    let components = ComponentPartition(successors)
    var search = BidirectionalSearch(successors: successors, predecessors: predecessors)
    var isEdgeCovered = [Bool](repeating: false, count: successors.edgeCount)
    var cycles: [[Int]] = []

    componentLoop: for component in 0..<components.componentCount {
        for source in components.members(of: component) {
            var previousTarget: Int32 = -1
            for position in successors.successors(of: Int(source)).indices {
                let target = successors.targets[position]
                let isParallelEdge = target == previousTarget
                previousTarget = target
                guard !isParallelEdge, !isEdgeCovered[position] else {
                    continue
                }
                let cycle =
                    target == source
                    ? [source]
                    : [source] + search.shortestPath(from: target, to: source).dropLast()
                for (index, node) in cycle.enumerated() {
                    let next = cycle[(index + 1) % cycle.count]
                    isEdgeCovered[successors.firstEdgePosition(from: node, to: next)] = true
                }
                cycles.append(rotatedToSmallestNode(cycle.map { core.originalNode[Int($0)] }))
                if cycles.count == limit {
                    break componentLoop
                }
            }
        }
    }
    return cycles.sorted { $0.lexicographicallyPrecedes($1) }
}

/// The part of a graph that lies on cycles, renumbered compactly.
///
/// Holds every node with an edge into its own strongly connected component (exactly the nodes on
/// some cycle) and every such edge. Core indices follow the original node order, so ascending
/// order and tie-breaking are the same in both numberings, and the core has the same strongly
/// connected components as the cyclic part of the original graph.
private struct CyclicCore {
    /// The core edges over core indices `0..<originalNode.count`.
    let graph: AdjacencyList
    /// Original node of every core index, ascending.
    let originalNode: [Int32]

    /// Extracts the cyclic core of `graph` in linear time.
    /// - Parameter graph: Any graph.
    init(_ graph: AdjacencyList) {
        let labelOfNode = tarjanComponentLabels(graph)
        var coreIndexOfNode = [Int32](repeating: -1, count: graph.nodeCount)
        var originalNode: [Int32] = []
        for node in 0..<graph.nodeCount {
            let label = labelOfNode[node]
            if graph.successors(of: node).contains(where: { labelOfNode[Int($0)] == label }) {
                coreIndexOfNode[node] = Int32(originalNode.count)
                originalNode.append(Int32(node))
            }
        }
        var edges: [(from: Int, to: Int)] = []
        for (coreIndex, node) in originalNode.enumerated() {
            for target in graph.successors(of: Int(node))
            where labelOfNode[Int(target)] == labelOfNode[Int(node)] {
                edges.append((coreIndex, Int(coreIndexOfNode[Int(target)])))
            }
        }
        self.graph = AdjacencyList(nodeCount: originalNode.count, edges: edges)
        self.originalNode = originalNode
    }
}

/// Rotates a cycle so that it starts at its smallest node.
/// - Parameter cycle: A non-empty cycle as a node list.
/// - Returns: The same cycle as `[Int]`, starting at its smallest node.
private func rotatedToSmallestNode(_ cycle: [Int32]) -> [Int] {
    let start = cycle.indices.min { cycle[$0] < cycle[$1] } ?? 0
    return (cycle[start...] + cycle[..<start]).map(Int.init)
}

extension AdjacencyList {
    /// Position in `targets` of the first edge `from -> to`, found by binary search.
    /// - Parameters:
    ///   - from: Source node, whose successors must be sorted ascending.
    ///   - to: Target node; the edge must exist.
    /// - Returns: An index into `targets`.
    fileprivate func firstEdgePosition(from: Int32, to: Int32) -> Int {
        let edges = successors(of: Int(from))
        var low = edges.startIndex
        var high = edges.endIndex
        while low < high {
            let middle = (low + high) / 2
            if edges[middle] < to {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}

/// Bidirectional breadth-first search for shortest paths, reusing its buffers across searches.
private struct BidirectionalSearch {
    /// The side searching forward from a path's start along successors.
    private var forward: SearchSide
    /// The side searching backward from a path's goal along predecessors.
    private var backward: SearchSide
    /// Number of the current search; stamps tell nodes reached in this search from stale ones.
    private var stamp: Int32 = 0

    /// Prepares a search over a graph given as ascending successor and predecessor lists.
    /// - Parameters:
    ///   - successors: The graph, successors sorted ascending.
    ///   - predecessors: The reversed graph, predecessors sorted ascending.
    init(successors: AdjacencyList, predecessors: AdjacencyList) {
        forward = SearchSide(graph: successors)
        backward = SearchSide(graph: predecessors)
    }

    /// A shortest path from `start` to `goal`, growing the smaller side one level at a time.
    /// - Parameters:
    ///   - start: First node of the path.
    ///   - goal: Last node of the path; must be reachable from `start` and differ from it.
    /// - Returns: The path as `[start, ..., goal]`.
    mutating func shortestPath(from start: Int32, to goal: Int32) -> [Int32] {
        stamp += 1
        forward.begin(at: start, stamp: stamp)
        backward.begin(at: goal, stamp: stamp)
        while true {
            precondition(forward.levelSize > 0 && backward.levelSize > 0, "Goal is unreachable")
            let meetingNode =
                forward.levelSize <= backward.levelSize
                ? forward.expandLevel(stamp: stamp, otherSide: backward)
                : backward.expandLevel(stamp: stamp, otherSide: forward)
            if let meetingNode {
                return forward.pathToOrigin(from: meetingNode).reversed()
                    + backward.pathToOrigin(from: meetingNode).dropFirst()
            }
        }
    }
}

/// One side of a bidirectional breadth-first search.
private struct SearchSide {
    /// Edges this side follows: successors going forward, predecessors going backward.
    let graph: AdjacencyList
    /// `reachedStamp[node] == stamp` when this side reached `node` in the search `stamp`.
    private(set) var reachedStamp: [Int32]
    /// Neighbor through which each reached node was first reached; -1 for the origin.
    private var parent: [Int32]
    /// Reached nodes in breadth-first order; the current frontier level is `queue[levelStart...]`.
    private var queue: [Int32] = []
    /// Start of the current frontier level in `queue`.
    private var levelStart = 0

    /// Number of nodes in the current frontier level.
    var levelSize: Int { queue.count - levelStart }

    /// Creates an idle side over `graph`.
    /// - Parameter graph: The edges this side follows, neighbors sorted ascending.
    init(graph: AdjacencyList) {
        self.graph = graph
        reachedStamp = [Int32](repeating: 0, count: graph.nodeCount)
        parent = [Int32](repeating: -1, count: graph.nodeCount)
    }

    /// Starts a new search whose only frontier node is `origin`.
    /// - Parameters:
    ///   - origin: Node this side searches from.
    ///   - stamp: Number of the new search, larger than all earlier ones.
    mutating func begin(at origin: Int32, stamp: Int32) {
        queue.removeAll(keepingCapacity: true)
        queue.append(origin)
        levelStart = 0
        reachedStamp[Int(origin)] = stamp
        parent[Int(origin)] = -1
    }

    /// Replaces the frontier by its unreached neighbors, in order, stopping early at the first
    /// neighbor the other side has already reached.
    /// - Parameters:
    ///   - stamp: Number of the current search.
    ///   - otherSide: The opposite side of the same search.
    /// - Returns: The first node reached by both sides, or `nil` if none was found.
    mutating func expandLevel(stamp: Int32, otherSide: SearchSide) -> Int32? {
        let levelEnd = queue.count
        defer { levelStart = levelEnd }
        for index in levelStart..<levelEnd {
            let node = queue[index]
            for neighbor in graph.successors(of: Int(node))
            where reachedStamp[Int(neighbor)] != stamp {
                reachedStamp[Int(neighbor)] = stamp
                parent[Int(neighbor)] = node
                if otherSide.reachedStamp[Int(neighbor)] == stamp {
                    return neighbor
                }
                queue.append(neighbor)
            }
        }
        return nil
    }

    /// The nodes from `node` back to this side's origin along first-reached links.
    /// - Parameter node: A node this side reached in the current search.
    /// - Returns: `[node, ..., origin]`.
    func pathToOrigin(from node: Int32) -> [Int32] {
        var path = [node]
        var current = node
        while parent[Int(current)] >= 0 {
            current = parent[Int(current)]
            path.append(current)
        }
        return path
    }
}
