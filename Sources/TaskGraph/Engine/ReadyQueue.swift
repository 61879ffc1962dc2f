/// A first-in first-out queue of node indices, amortised O(1) without per-element allocation.
struct ReadyQueue {
    private var storage: [Int] = []
    private var head = 0

    /// Whether the queue holds no node.
    var isEmpty: Bool { head == storage.count }

    /// Adds a node at the back.
    mutating func append(_ node: Int) {
        storage.append(node)
    }

    /// Removes and returns the front node, or nil.
    mutating func popFirst() -> Int? {
        guard head < storage.count else { return nil }
        let node = storage[head]
        head += 1
        if head > 1024, head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return node
    }
}
