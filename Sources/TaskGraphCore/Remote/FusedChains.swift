/// The maximal linear chains of a graph that a remote executor runs as one job each (fusion,
/// docs/cluster.md): nodes A → B → … in which every link A → B is the only edge of both ends
/// that way (A has exactly one dependent, B, and B needs exactly one node, A), and every node
/// is fusible. A chain has at least two nodes; a node is in at most one chain.
public struct FusedChains: Sendable, Equatable {
    /// The chains, each from its head (the node the others come after) to its tail, ordered by
    /// their heads' indices.
    public let chains: [[Int]]
    /// For each node, its chain's index in `chains`, or -1.
    private let chainOfNode: [Int32]
    /// For each node in a chain, its position in it (0 for the head).
    private let positionOfNode: [Int32]

    /// Finds the chains of the graph of `count` nodes.
    /// - Parameters:
    ///   - needs: the nodes a node needs.
    ///   - dependents: the nodes that need a node.
    ///   - fusible: whether a node may be in a chain (runs on the executor, fusion enabled).
    public init(count: Int, needs: (Int) -> [Int], dependents: (Int) -> [Int], fusible: (Int) -> Bool) {
        let eligible = (0..<count).map(fusible)
        // The link from each node to the next in its chain, or -1; the reverse marks inner nodes.
        var next = [Int](repeating: -1, count: count)
        var hasPrevious = [Bool](repeating: false, count: count)
        for node in 0..<count where eligible[node] {
            let after = dependents(node)
            guard after.count == 1, let successor = after.first, eligible[successor], needs(successor) == [node] else {
                continue
            }
            next[node] = successor
            hasPrevious[successor] = true
        }
        var chains: [[Int]] = []
        var chainOfNode = [Int32](repeating: -1, count: count)
        var positionOfNode = [Int32](repeating: 0, count: count)
        for head in 0..<count where next[head] >= 0 && !hasPrevious[head] {
            var chain = [head]
            var node = head
            while next[node] >= 0 {
                node = next[node]
                chain.append(node)
            }
            for (position, member) in chain.enumerated() {
                chainOfNode[member] = Int32(chains.count)
                positionOfNode[member] = Int32(position)
            }
            chains.append(chain)
        }
        self.chains = chains
        self.chainOfNode = chainOfNode
        self.positionOfNode = positionOfNode
    }

    /// The chain of `node` and its position in it (0 for the head), or nil when it is in none
    /// (nodes added while the run runs, past those the chains were made of, are in none).
    public func chain(of node: Int) -> (chain: [Int], position: Int)? {
        guard node < chainOfNode.count else { return nil }
        let index = chainOfNode[node]
        guard index >= 0 else { return nil }
        return (chains[Int(index)], Int(positionOfNode[node]))
    }
}
