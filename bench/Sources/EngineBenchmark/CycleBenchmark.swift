import TaskGraphCore

/// Times cycle detection (strongly connected components plus cycle extraction) on a random
/// graph with the given number of edges and one planted cycle.
enum CycleBenchmark {
    static func run(edges edgeCount: Int) -> Double {
        let nodeCount = edgeCount / 3
        var generator = SplitMix64(seed: 7)
        var edges: [(from: Int, to: Int)] = []
        edges.reserveCapacity(edgeCount)
        while edges.count < edgeCount - 1 {
            let from = Int(generator.next() % UInt64(nodeCount - 1)) + 1
            let to = Int(generator.next() % UInt64(from))
            edges.append((from, to))
        }
        edges.append((0, nodeCount - 1))
        let graph = AdjacencyList(nodeCount: nodeCount, edges: edges)
        let start = ContinuousClock.now
        let cycles = findCycles(graph)
        let elapsed = ContinuousClock.now - start
        precondition(!cycles.isEmpty)
        return EngineBenchmark.seconds(elapsed)
    }
}
