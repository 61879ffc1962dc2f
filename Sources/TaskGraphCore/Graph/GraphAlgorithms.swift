// Graph algorithms for the task runner: strongly connected components, dependency ordering,
// levels, reachability and critical path.
//
// In dependency graphs an edge `a -> b` means "a needs b": edges point from a node to its
// dependencies. Every function is iterative, so graphs with millions of nodes in a single chain
// are fine.

/// Strongly connected components, found with an iterative Tarjan search in linear time.
/// - Parameter graph: The graph to partition.
/// - Returns: Every component sorted ascending; components ordered by their smallest node.
func stronglyConnectedComponents(_ graph: AdjacencyList) -> [[Int]] {
    let partition = ComponentPartition(graph)
    return (0..<partition.componentCount).map { component in
        partition.members(of: component).map(Int.init)
    }
}

/// Execution order with dependencies first (Kahn's algorithm on the needs-edges reversed).
///
/// Deterministic: whenever several nodes are ready, the smallest index runs first.
/// Runs in O((V + E) log V).
/// - Parameter graph: A graph whose edges point from a node to what it needs.
/// - Returns: Every node, each after all the nodes it points to; `nil` if the graph has a cycle.
func dependencyOrder(_ graph: AdjacencyList) -> [Int]? {
    let nodeCount = graph.nodeCount
    let dependents = graph.reversed()
    var unmetDependencyCount = (0..<nodeCount).map { node in
        graph.offsets[node + 1] - graph.offsets[node]
    }
    var readyNodes = NodeMinHeap()
    for node in 0..<nodeCount where unmetDependencyCount[node] == 0 {
        readyNodes.insert(Int32(node))
    }
    var order: [Int] = []
    order.reserveCapacity(nodeCount)
    while let node = readyNodes.popMin() {
        order.append(Int(node))
        for dependent in dependents.successors(of: Int(node)) {
            unmetDependencyCount[Int(dependent)] -= 1
            if unmetDependencyCount[Int(dependent)] == 0 {
                readyNodes.insert(dependent)
            }
        }
    }
    return order.count == nodeCount ? order : nil
}

/// Groups nodes into levels for a dry-run plan.
///
/// Level 0 holds the nodes that need nothing; a node that needs others sits one level above the
/// highest of them, so every level only needs nodes from lower levels.
/// - Parameter graph: A graph whose edges point from a node to what it needs.
/// - Returns: The levels, lowest first, each sorted ascending; `nil` if the graph has a cycle.
package func dependencyLevels(_ graph: AdjacencyList) -> [[Int]]? {
    guard let order = dependencyOrder(graph) else {
        return nil
    }
    var levelOfNode = [Int](repeating: 0, count: graph.nodeCount)
    var levelCount = 0
    for node in order {
        var level = 0
        for dependency in graph.successors(of: node) {
            level = max(level, levelOfNode[Int(dependency)] + 1)
        }
        levelOfNode[node] = level
        levelCount = max(levelCount, level + 1)
    }
    var levels = [[Int]](repeating: [], count: levelCount)
    for node in 0..<graph.nodeCount {
        levels[levelOfNode[node]].append(node)
    }
    return levels
}

/// Every node reachable from `roots` by following edges, e.g. the tasks to run for "run only these
/// and what they need".
/// - Parameters:
///   - roots: Starting nodes; each must be a valid node index. Duplicates are allowed.
///   - graph: The graph to walk.
/// - Returns: The reachable nodes, roots included, ascending.
func reachableNodes(from roots: [Int], in graph: AdjacencyList) -> [Int] {
    var isReached = [Bool](repeating: false, count: graph.nodeCount)
    var pending: [Int32] = []
    for root in roots where !isReached[root] {
        isReached[root] = true
        pending.append(Int32(root))
    }
    while let node = pending.popLast() {
        for successor in graph.successors(of: Int(node)) where !isReached[Int(successor)] {
            isReached[Int(successor)] = true
            pending.append(successor)
        }
    }
    return (0..<graph.nodeCount).filter { isReached[$0] }
}

/// The critical path: the heaviest chain of nodes when following edges from a node to what it
/// needs, down to a node that needs nothing.
///
/// Ties are broken deterministically: among equally heavy candidates the smallest node index wins,
/// both for the node the chain ends at (the last to run) and for each dependency along it.
/// Weights are expected to be non-negative durations. Runs in O((V + E) log V).
/// - Parameters:
///   - graph: A graph whose edges point from a node to what it needs.
///   - weights: The weight (e.g. duration) of every node; `weights.count == graph.nodeCount`.
/// - Returns: The path in execution order (the node that needs nothing first) and its total
///   weight; `([], 0)` for an empty graph; `nil` if the graph has a cycle.
package func criticalPath(_ graph: AdjacencyList, weights: [Double]) -> (path: [Int], total: Double)? {
    precondition(weights.count == graph.nodeCount, "Need exactly one weight per node")
    guard let order = dependencyOrder(graph) else {
        return nil
    }
    // Weight of the heaviest chain starting at each node, and that chain's next node (-1: none).
    var chainWeight = [Double](repeating: 0, count: graph.nodeCount)
    var heaviestDependency = [Int](repeating: -1, count: graph.nodeCount)
    for node in order {
        var heaviest = -1
        for successor in graph.successors(of: node) {
            let dependency = Int(successor)
            if heaviest < 0 || chainWeight[dependency] > chainWeight[heaviest]
                || (chainWeight[dependency] == chainWeight[heaviest] && dependency < heaviest)
            {
                heaviest = dependency
            }
        }
        heaviestDependency[node] = heaviest
        chainWeight[node] = weights[node] + (heaviest < 0 ? 0 : chainWeight[heaviest])
    }
    guard var node = chainWeight.indices.first else {
        return ([], 0)
    }
    for candidate in chainWeight.indices where chainWeight[candidate] > chainWeight[node] {
        node = candidate
    }
    let total = chainWeight[node]
    var path: [Int] = []
    while node >= 0 {
        path.append(node)
        node = heaviestDependency[node]
    }
    return (path.reversed(), total)
}

/// Binary min-heap of node indices, used to release the smallest ready node first.
private struct NodeMinHeap {
    /// Heap-ordered storage: every parent is smaller than or equal to its children.
    private var nodes: [Int32] = []

    /// Adds a node to the heap in O(log n).
    /// - Parameter node: The node index to add.
    mutating func insert(_ node: Int32) {
        nodes.append(node)
        var child = nodes.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard nodes[child] < nodes[parent] else {
                break
            }
            nodes.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the smallest node in O(log n).
    /// - Returns: The smallest node, or `nil` if the heap is empty.
    mutating func popMin() -> Int32? {
        guard let last = nodes.popLast() else {
            return nil
        }
        guard let minimum = nodes.first else {
            return last
        }
        nodes[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < nodes.count else {
                break
            }
            let right = left + 1
            let smaller = right < nodes.count && nodes[right] < nodes[left] ? right : left
            guard nodes[smaller] < nodes[parent] else {
                break
            }
            nodes.swapAt(smaller, parent)
            parent = smaller
        }
        return minimum
    }
}
