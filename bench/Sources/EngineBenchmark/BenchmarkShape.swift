/// The DAG shapes the engine benchmark runs: the same edges for taskgraph and OperationQueue.
enum BenchmarkShape: String, CaseIterable {
    /// n0 <- n1 <- … : every node needs the previous one.
    case chain
    /// One root, `count` nodes needing it, one sink needing them all.
    case fan
    /// Each node needs up to three random earlier nodes (fixed seed): about 3 edges per node.
    case random

    /// The dependencies of each node (indices of earlier nodes).
    func dependencies(count: Int) -> [[Int]] {
        switch self {
        case .chain:
            return (0..<count).map { $0 == 0 ? [] : [$0 - 1] }
        case .fan:
            let middle = count - 2
            return [[]] + Array(repeating: [0], count: middle) + [Array(1...middle)]
        case .random:
            var generator = SplitMix64(seed: 42)
            return (0..<count).map { node in
                guard node > 0 else { return [] }
                let picks = (0..<min(3, node)).map { _ in Int(generator.next() % UInt64(node)) }
                return Array(Set(picks)).sorted()
            }
        }
    }
}

/// A small deterministic random number generator.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
