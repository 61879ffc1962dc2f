/// The ready nodes of one pool, in the order they should start.
///
/// Higher priorities (`NodeSettings.priority`) start first. Within one priority, nodes that
/// continue work already under way (they have dependencies) come before new work (roots), and
/// among them the deepest first: finishing an item's chain releases its data before another
/// item's data is read. Like Dask's ordering, this keeps a run of 200 photos on two cores at
/// about two photos in memory instead of 200. Roots of one priority start in the order given.
struct ReadyQueue {
    /// Where a waiting node with dependencies stands: higher `rank` (priority, then depth) first,
    /// then the lower index.
    private struct Key {
        let rank: Int64
        let node: UInt32

        init(node: Int, depth: Int32, priority: Int32) {
            rank = Int64(priority) << 32 | Int64(UInt32(bitPattern: depth))
            self.node = UInt32(node)
        }

        var priority: Int32 { Int32(truncatingIfNeeded: rank >> 32) }

        func precedes(_ other: Key) -> Bool {
            rank != other.rank ? rank > other.rank : node < other.node
        }
    }

    /// The roots of one priority, first in first out.
    private struct RootLevel {
        let priority: Int32
        var nodes: [Int] = []
        var head = 0

        var isEmpty: Bool { head == nodes.count }
    }

    /// Nodes with dependencies, as a binary heap ordered by `Key.precedes`.
    private var continuing: [Key] = []
    /// Roots, by priority, highest first.
    private var roots: [RootLevel] = []

    /// How many nodes with dependencies are waiting.
    var continuingCount: Int { continuing.count }

    /// Whether some root is waiting.
    var hasRoots: Bool { roots.contains { !$0.isEmpty } }

    /// Adds a root (a node without dependencies).
    mutating func appendRoot(_ node: Int, priority: Int32 = 0) {
        let level = roots.firstIndex { $0.priority <= priority } ?? roots.count
        if level < roots.count, roots[level].priority == priority {
            roots[level].nodes.append(node)
        } else {
            roots.insert(RootLevel(priority: priority, nodes: [node]), at: level)
        }
    }

    /// Adds a node with dependencies; `depth` is the length of the longest chain of nodes
    /// leading to it.
    mutating func appendContinuing(_ node: Int, depth: Int32, priority: Int32 = 0) {
        continuing.append(Key(node: node, depth: depth, priority: priority))
        siftUp(from: continuing.count - 1)
    }

    /// Removes and returns the node that should start next: the higher priority first, and at
    /// equal priority a node with dependencies before a root. Roots only when `allowingRoots`.
    mutating func pop(allowingRoots: Bool) -> (node: Int, isRoot: Bool)? {
        let rootPriority = allowingRoots ? roots.first(where: { !$0.isEmpty })?.priority : nil
        if let top = continuing.first, rootPriority.map({ top.priority >= $0 }) ?? true {
            return popContinuing().map { ($0, false) }
        }
        return rootPriority == nil ? nil : popRoot().map { ($0, true) }
    }

    /// Removes and returns the first waiting node with dependencies (highest priority, deepest,
    /// the earliest added index among equals), or nil.
    mutating func popContinuing() -> Int? {
        guard let top = continuing.first else { return nil }
        let last = continuing.removeLast()
        if !continuing.isEmpty {
            continuing[0] = last
            siftDown(from: 0)
        }
        return Int(top.node)
    }

    /// Removes and returns the first waiting root of the highest priority, or nil.
    mutating func popRoot() -> Int? {
        guard let level = roots.firstIndex(where: { !$0.isEmpty }) else { return nil }
        let node = roots[level].nodes[roots[level].head]
        roots[level].head += 1
        if roots[level].head > 1024, roots[level].head * 2 > roots[level].nodes.count {
            roots[level].nodes.removeFirst(roots[level].head)
            roots[level].head = 0
        }
        return node
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        let key = continuing[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard key.precedes(continuing[parent]) else { break }
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
            if child + 1 < count, continuing[child + 1].precedes(continuing[child]) { child += 1 }
            guard continuing[child].precedes(key) else { break }
            continuing[parent] = continuing[child]
            parent = child
        }
        continuing[parent] = key
    }
}
