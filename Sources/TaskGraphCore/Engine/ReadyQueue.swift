/// The ready nodes of one pool, in the order they should start.
///
/// Nodes that continue work already under way (they have dependencies) come before new work
/// (roots), and among them the deepest first: finishing an item's chain releases its data
/// before another item's data is read. Like Dask's ordering, this keeps a run of 200 photos on
/// two cores at about two photos in memory instead of 200. Roots start in the order given.
struct ReadyQueue {
    /// Nodes with dependencies, as a binary max-heap of `key(node, depth)`.
    private var continuing: [Int64] = []
    /// Roots, first in first out.
    private var roots: [Int] = []
    private var rootsHead = 0

    /// How many nodes with dependencies are waiting.
    var continuingCount: Int { continuing.count }

    /// Whether some root is waiting.
    var hasRoots: Bool { rootsHead < roots.count }

    /// Adds a root (a node without dependencies).
    mutating func appendRoot(_ node: Int) {
        roots.append(node)
    }

    /// Adds a node with dependencies; `depth` is the length of the longest chain of nodes
    /// leading to it.
    mutating func appendContinuing(_ node: Int, depth: Int32) {
        continuing.append(Self.key(node, depth: depth))
        siftUp(from: continuing.count - 1)
    }

    /// Removes and returns the deepest waiting node with dependencies (the earliest added
    /// index among equals), or nil.
    mutating func popContinuing() -> Int? {
        guard let top = continuing.first else { return nil }
        let last = continuing.removeLast()
        if !continuing.isEmpty {
            continuing[0] = last
            siftDown(from: 0)
        }
        return Int(UInt32.max - UInt32(truncatingIfNeeded: top))
    }

    /// Removes and returns the first waiting root, or nil.
    mutating func popRoot() -> Int? {
        guard rootsHead < roots.count else { return nil }
        let node = roots[rootsHead]
        rootsHead += 1
        if rootsHead > 1024, rootsHead * 2 > roots.count {
            roots.removeFirst(rootsHead)
            rootsHead = 0
        }
        return node
    }

    /// Deeper first; for equal depth the lower index first.
    private static func key(_ node: Int, depth: Int32) -> Int64 {
        Int64(depth) << 32 | Int64(UInt32.max - UInt32(node))
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        let key = continuing[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard continuing[parent] < key else { break }
            continuing[child] = continuing[parent]
            child = parent
        }
        continuing[child] = key
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        let key = continuing[parent]
        let count = continuing.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, continuing[child + 1] > continuing[child] { child += 1 }
            guard continuing[child] > key else { break }
            continuing[parent] = continuing[child]
            parent = child
        }
        continuing[parent] = key
    }
}
