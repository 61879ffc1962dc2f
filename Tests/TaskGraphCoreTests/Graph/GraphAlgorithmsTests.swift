import Testing

@testable import TaskGraphCore

/// Number of nodes in the large chain and ring graphs used to prove the algorithms are iterative.
private let largeGraphNodeCount = 1_000_000

/// Runs CPU-heavy test work on a dedicated thread, so million-node tests do not occupy the
/// cooperative pool (two threads here) that concurrently running tests need.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
    try await BlockingIO.run(work)
}

/// A chain `0 -> 1 -> ... -> nodeCount - 1`.
/// - Parameter nodeCount: Number of nodes.
/// - Returns: The chain graph.
private func chainGraph(_ nodeCount: Int) -> AdjacencyList {
    AdjacencyList(nodeCount: nodeCount, edges: (0..<(nodeCount - 1)).map { ($0, $0 + 1) })
}

/// A ring `0 -> 1 -> ... -> nodeCount - 1 -> 0`.
/// - Parameter nodeCount: Number of nodes.
/// - Returns: The ring graph.
private func ringGraph(_ nodeCount: Int) -> AdjacencyList {
    AdjacencyList(nodeCount: nodeCount, edges: (0..<nodeCount).map { ($0, ($0 + 1) % nodeCount) })
}

/// The successors of every node as plain integer arrays.
/// - Parameter graph: The graph to flatten.
/// - Returns: One successor list per node.
private func successorLists(_ graph: AdjacencyList) -> [[Int]] {
    (0..<graph.nodeCount).map { graph.successors(of: $0).map(Int.init) }
}

/// Diamond where 0 needs 1 and 2, and both of those need 3.
private let diamondGraph = AdjacencyList(successors: [[1, 2], [3], [3], []])

// MARK: - AdjacencyList

/// Edge-list construction buckets edges by source, keeping their given order and parallel edges.
@Test func edgeListConstructionGroupsBySourceAndKeepsGivenOrder() {
    let graph = AdjacencyList(nodeCount: 4, edges: [(2, 0), (0, 3), (2, 1), (0, 1), (2, 0)])
    #expect(graph.nodeCount == 4)
    #expect(graph.edgeCount == 5)
    #expect(graph.offsets == [0, 2, 2, 5, 5])
    #expect(graph.targets == [3, 1, 0, 1, 0])
    #expect(Array(graph.successors(of: 2)) == [0, 1, 0])
    #expect(graph.successors(of: 1).isEmpty)
}

/// Successor-list construction keeps list order and equals the same graph built from edges.
@Test func successorListConstructionMatchesEdgeListConstruction() {
    let fromLists = AdjacencyList(successors: [[1, 2], [], [0]])
    let fromEdges = AdjacencyList(nodeCount: 3, edges: [(0, 1), (2, 0), (0, 2)])
    #expect(fromLists.offsets == [0, 2, 2, 3])
    #expect(fromLists.targets == [1, 2, 0])
    #expect(fromLists == fromEdges)
    #expect(fromLists != AdjacencyList(successors: [[2, 1], [], [0]]))
}

/// `reversed()` lists predecessors ascending, so reversing twice sorts successor lists.
@Test func reversedListsPredecessorsInAscendingOrder() {
    let graph = AdjacencyList(successors: [[2, 1], [2], [0, 1], []])
    let reversed = graph.reversed()
    #expect(reversed.offsets == [0, 1, 3, 5, 5])
    #expect(successorLists(reversed) == [[2], [0, 2], [0, 1], []])
    #expect(successorLists(reversed.reversed()) == [[1, 2], [2], [0, 1], []])
}

/// Every algorithm accepts a graph without nodes.
@Test func emptyGraphIsHandledEverywhere() throws {
    let empty = AdjacencyList(successors: [])
    #expect(empty.nodeCount == 0)
    #expect(empty.edgeCount == 0)
    #expect(empty.offsets == [0])
    #expect(empty.reversed() == empty)
    #expect(stronglyConnectedComponents(empty).isEmpty)
    #expect(findCycles(empty).isEmpty)
    #expect(dependencyOrder(empty) == [])
    #expect(dependencyLevels(empty) == [])
    #expect(reachableNodes(from: [], in: empty).isEmpty)
    let critical = try #require(criticalPath(empty, weights: []))
    #expect(critical.path.isEmpty)
    #expect(critical.total == 0)
}

// MARK: - Strongly connected components

/// Components come out sorted and ordered by smallest node.
@Test func stronglyConnectedComponentsOfSmallGraph() {
    let graph = AdjacencyList(
        nodeCount: 8,
        edges: [(7, 0), (0, 4), (4, 7), (4, 1), (1, 2), (2, 1), (2, 3), (5, 6), (6, 5), (5, 0)]
    )
    #expect(stronglyConnectedComponents(graph) == [[0, 4, 7], [1, 2], [3], [5, 6]])
}

/// A million-node chain (deep search, no cycle) gives one singleton per node without overflow.
@Test func stronglyConnectedComponentsOfMillionNodeChainAreSingletons() async throws {
    let components = try await offThePool { stronglyConnectedComponents(chainGraph(largeGraphNodeCount)) }
    #expect(components.count == largeGraphNodeCount)
    #expect(components.allSatisfy { $0.count == 1 })
    #expect(components.first == [0])
    #expect(components.last == [largeGraphNodeCount - 1])
}

/// A million-node ring is a single component.
@Test func stronglyConnectedComponentsOfMillionNodeRingIsOneComponent() async throws {
    let components = try await offThePool { stronglyConnectedComponents(ringGraph(largeGraphNodeCount)) }
    #expect(components.count == 1)
    #expect(components.first == Array(0..<largeGraphNodeCount))
}

// MARK: - Cycles

/// A self-loop is the one-node cycle `[a]`.
@Test func selfLoopIsReportedAsSingleNodeCycle() {
    let graph = AdjacencyList(nodeCount: 3, edges: [(0, 1), (2, 2), (1, 2)])
    #expect(findCycles(graph) == [[2]])
}

/// A triangle is reported once, not once per edge.
@Test func triangleIsReportedOnce() {
    let graph = AdjacencyList(nodeCount: 3, edges: [(2, 0), (0, 1), (1, 2)])
    #expect(findCycles(graph) == [[0, 1, 2]])
}

/// Cycles in separate components are both found.
@Test func disjointCyclesAreBothReported() {
    let graph = AdjacencyList(nodeCount: 5, edges: [(3, 4), (0, 1), (4, 2), (1, 0), (2, 3)])
    #expect(findCycles(graph) == [[0, 1], [2, 3, 4]])
}

/// A figure-eight (two cycles through one node) yields both cycles.
@Test func cyclesSharingANodeAreBothReported() {
    let graph = AdjacencyList(
        nodeCount: 5,
        edges: [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]
    )
    #expect(findCycles(graph) == [[0, 1, 2], [2, 3, 4]])
}

/// Cycles start at their smallest node; acyclic lead-in edges are ignored.
@Test func cycleIsRotatedToStartAtSmallestNode() {
    let graph = AdjacencyList(nodeCount: 5, edges: [(3, 1), (1, 4), (4, 3), (0, 3)])
    #expect(findCycles(graph) == [[1, 4, 3]])
}

/// Chords get their own shortest cycles, so every cyclic edge is shown; parallel edges are
/// reported once.
@Test func everyEdgeOnACycleAppearsInSomeReportedCycle() {
    // A square 0 -> 1 -> 2 -> 3 -> 0 with chords 0 -> 2 and 1 -> 3, plus a parallel edge.
    let graph = AdjacencyList(
        nodeCount: 4,
        edges: [(0, 1), (1, 2), (2, 3), (3, 0), (1, 3), (0, 2), (0, 1)]
    )
    #expect(findCycles(graph) == [[0, 1, 2, 3], [0, 1, 3], [0, 2, 3]])
}

/// A million-node ring is one cycle found with a single search.
@Test func millionNodeRingIsExactlyOneCycle() async throws {
    let cycles = try await offThePool { findCycles(ringGraph(largeGraphNodeCount)) }
    #expect(cycles.count == 1)
    #expect(cycles.first?.count == largeGraphNodeCount)
    #expect(cycles.first == Array(0..<largeGraphNodeCount))
}

/// Graphs without cycles report none.
@Test func acyclicGraphHasNoCycles() {
    #expect(findCycles(diamondGraph).isEmpty)
    #expect(findCycles(chainGraph(1_000)).isEmpty)
}

/// At most `limit` cycles are reported, taken from components in order of smallest node.
@Test func cycleLimitIsRespected() {
    // Ten disjoint two-node cycles: 0 <-> 1, 2 <-> 3, ...
    let pairs = AdjacencyList(successors: (0..<20).map { [$0 ^ 1] })
    #expect(findCycles(pairs).count == 10)
    #expect(findCycles(pairs, limit: 3) == [[0, 1], [2, 3], [4, 5]])
    #expect(findCycles(pairs, limit: 0).isEmpty)
}

// MARK: - Dependency order and levels

/// 0 needs 2 and 1; 1 and 2 need 3; 3 and 4 need nothing.
private let smallDependencyGraph = AdjacencyList(successors: [[2, 1], [3], [3], [], []])

/// Dependencies run first and the smallest ready node wins ties.
@Test func dependencyOrderRunsDependenciesFirstSmallestReadyNodeFirst() {
    #expect(dependencyOrder(smallDependencyGraph) == [3, 1, 2, 0, 4])
    #expect(dependencyOrder(diamondGraph) == [3, 1, 2, 0])
}

/// A node sits one level above its highest dependency; levels are sorted.
@Test func dependencyLevelsGroupNodesByDepth() {
    #expect(dependencyLevels(smallDependencyGraph) == [[3, 4], [1, 2], [0]])
    let graph = AdjacencyList(successors: [[], [0], [1, 0], [0], [2, 3]])
    #expect(dependencyLevels(graph) == [[0], [1, 3], [2], [4]])
}

/// Cycles, including self-loops, make ordering impossible.
@Test func dependencyOrderAndLevelsAreNilForCyclicGraphs() {
    let twoCycle = AdjacencyList(successors: [[1], [0], []])
    let selfLoop = AdjacencyList(successors: [[], [1]])
    #expect(dependencyOrder(twoCycle) == nil)
    #expect(dependencyLevels(twoCycle) == nil)
    #expect(dependencyOrder(selfLoop) == nil)
    #expect(dependencyLevels(selfLoop) == nil)
}

/// A million-node dependency chain is ordered and levelled without overflow.
@Test func dependencyOrderAndLevelsHandleMillionNodeChain() async throws {
    // Node i needs node i + 1, so the last node runs first.
    let (order, levels) = try await offThePool {
        let graph = chainGraph(largeGraphNodeCount)
        return (dependencyOrder(graph), dependencyLevels(graph))
    }
    #expect(order == Array((0..<largeGraphNodeCount).reversed()))
    #expect(levels?.count == largeGraphNodeCount)
    #expect(levels?.first == [largeGraphNodeCount - 1])
    #expect(levels?.last == [0])
}

// MARK: - Reachability and critical path

/// Reachability includes the roots, follows edges only forward and ignores duplicate roots.
@Test func reachableNodesFollowEdgesFromRoots() {
    let graph = AdjacencyList(successors: [[1], [2], [], [1], [4], []])
    #expect(reachableNodes(from: [3], in: graph) == [1, 2, 3])
    #expect(reachableNodes(from: [4, 0, 4], in: graph) == [0, 1, 2, 4])
    #expect(reachableNodes(from: [5], in: graph) == [5])
    #expect(reachableNodes(from: [], in: graph).isEmpty)
}

/// The heavier branch of a diamondGraph wins; on a tie the smaller node index wins.
@Test func criticalPathOfWeightedDiamond() throws {
    let heavyRight = try #require(criticalPath(diamondGraph, weights: [1, 2, 5, 3]))
    #expect(heavyRight.path == [3, 2, 0])
    #expect(heavyRight.total == 9)

    let tied = try #require(criticalPath(diamondGraph, weights: [1, 4, 4, 3]))
    #expect(tied.path == [3, 1, 0])
    #expect(tied.total == 8)
}

/// The heaviest chain may be a lone node elsewhere in the graph; cyclic graphs give `nil`.
@Test func criticalPathPicksHeaviestChainAnywhereAndRejectsCycles() throws {
    let withLoneHeavyNode = AdjacencyList(successors: [[1, 2], [3], [3], [], []])
    let critical = try #require(criticalPath(withLoneHeavyNode, weights: [1, 2, 5, 3, 10]))
    #expect(critical.path == [4])
    #expect(critical.total == 10)
    #expect(criticalPath(AdjacencyList(successors: [[1], [0]]), weights: [1, 1]) == nil)
}

// MARK: - Randomized cross-checks

/// Deterministic pseudo-random generator (SplitMix64) so randomized tests are repeatable.
private struct SeededGraphGenerator: RandomNumberGenerator {
    /// Current generator state.
    var state: UInt64

    /// Returns the next pseudo-random value.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// On random small graphs, every algorithm agrees with a brute-force model of its contract.
@Test(arguments: 0..<40)
func randomGraphsAgreeWithBruteForce(seed: Int) {
    var generator = SeededGraphGenerator(state: UInt64(seed))
    let nodeCount = Int.random(in: 1...25, using: &generator)
    let edges = (0..<Int.random(in: 0...(2 * nodeCount), using: &generator)).map { _ in
        (
            from: Int.random(in: 0..<nodeCount, using: &generator),
            to: Int.random(in: 0..<nodeCount, using: &generator)
        )
    }
    let graph = AdjacencyList(nodeCount: nodeCount, edges: edges)
    let reachable = (0..<nodeCount).map { Set(reachableNodes(from: [$0], in: graph)) }
    let isOnCycle = { (edge: (from: Int, to: Int)) in reachable[edge.to].contains(edge.from) }

    // Components: two nodes share one exactly when each reaches the other.
    let components = stronglyConnectedComponents(graph)
    #expect(components.flatMap { $0 }.sorted() == Array(0..<nodeCount))
    for component in components {
        let representative = component[0]
        let mutuallyReachable = (0..<nodeCount).filter {
            reachable[representative].contains($0) && reachable[$0].contains(representative)
        }
        #expect(component == mutuallyReachable)
    }
    #expect(components.map { $0[0] } == components.map { $0[0] }.sorted())

    // Cycles: valid, elementary, canonical, sorted, distinct, covering every edge on a cycle.
    let cycles = findCycles(graph, limit: 1_000)
    let edgeSet = Set(edges.map { [$0.from, $0.to] })
    var coveredEdges = Set<[Int]>()
    for cycle in cycles {
        #expect(Set(cycle).count == cycle.count)
        #expect(cycle.first == cycle.min())
        for (index, node) in cycle.enumerated() {
            let edge = [node, cycle[(index + 1) % cycle.count]]
            #expect(edgeSet.contains(edge))
            coveredEdges.insert(edge)
        }
    }
    #expect(zip(cycles, cycles.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
    #expect(coveredEdges == Set(edges.filter(isOnCycle).map { [$0.from, $0.to] }))
    #expect(findCycles(graph, limit: 2).count == min(2, cycles.count))

    // Ordering: exists exactly when acyclic, and equals repeatedly running the smallest node
    // whose dependencies have all run.
    var naiveOrder: [Int] = []
    var hasRun = [Bool](repeating: false, count: nodeCount)
    while let next = (0..<nodeCount).first(where: { node in
        !hasRun[node] && graph.successors(of: node).allSatisfy { hasRun[Int($0)] }
    }) {
        naiveOrder.append(next)
        hasRun[next] = true
    }
    let hasCycle = edges.contains(where: isOnCycle)
    let order = dependencyOrder(graph)
    #expect((order == nil) == hasCycle)
    #expect(order == (hasCycle ? nil : naiveOrder))
    if let order, let levels = dependencyLevels(graph) {
        var position = [Int](repeating: 0, count: nodeCount)
        var level = [Int](repeating: 0, count: nodeCount)
        for (index, node) in order.enumerated() {
            position[node] = index
        }
        for (index, members) in levels.enumerated() {
            for node in members {
                level[node] = index
            }
        }
        #expect(order.sorted() == Array(0..<nodeCount))
        #expect(edges.allSatisfy { position[$0.to] < position[$0.from] })
        for node in 0..<nodeCount {
            let neededLevels = graph.successors(of: node).map { level[Int($0)] }
            #expect(level[node] == (neededLevels.max().map { $0 + 1 } ?? 0))
        }
    }
}
