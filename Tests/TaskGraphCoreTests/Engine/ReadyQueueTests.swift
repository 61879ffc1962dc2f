import Testing

@testable import TaskGraphCore

@Suite struct ReadyQueueTests {
    @Test func continuingNodesComeDeepestFirstThenByIndex() {
        var queue = ReadyQueue()
        for (node, depth) in [(7, 1), (3, 2), (9, 2), (1, 1), (4, 5), (2, 2)] {
            queue.appendContinuing(node, depth: Int32(depth))
        }
        #expect(queue.continuingCount == 6)
        var order: [Int] = []
        while let node = queue.popContinuing() { order.append(node) }
        #expect(order == [4, 2, 3, 9, 1, 7])
    }

    @Test func rootsComeFirstInFirstOut() {
        var queue = ReadyQueue()
        for node in 0..<3000 { queue.appendRoot(node) }
        var order: [Int] = []
        while let node = queue.popRoot() { order.append(node) }
        #expect(order == Array(0..<3000))
        #expect(!queue.hasRoots)
    }

    @Test func aHeapOfManyNodesPopsInOrder() {
        var queue = ReadyQueue()
        var generator = SystemRandomNumberGenerator()
        var expected: [(node: Int, depth: Int32)] = []
        for node in 0..<5000 {
            let depth = Int32.random(in: 0..<50, using: &generator)
            queue.appendContinuing(node, depth: depth)
            expected.append((node, depth))
        }
        expected.sort { ($0.depth, -$0.node) > ($1.depth, -$1.node) }
        var order: [Int] = []
        while let node = queue.popContinuing() { order.append(node) }
        #expect(order == expected.map(\.node))
    }

    @Test func higherPrioritiesComeFirstThenTheUsualOrder() {
        var queue = ReadyQueue()
        queue.appendRoot(0)
        queue.appendRoot(1, priority: 4)
        queue.appendRoot(2, priority: -4)
        queue.appendRoot(3, priority: 4)
        queue.appendContinuing(4, depth: 1)
        queue.appendContinuing(5, depth: 9, priority: -4)
        queue.appendContinuing(6, depth: 2)
        queue.appendContinuing(7, depth: 1, priority: 8)
        var order: [Int] = []
        while let (node, _) = queue.pop(allowingRoots: true) { order.append(node) }
        // 8: 7; 4: roots 1, 3; 0: continuing 6 (deeper), 4, then root 0; -4: continuing 5, root 2.
        #expect(order == [7, 1, 3, 6, 4, 0, 5, 2])
    }

    @Test func rootsWaitWhenNotAllowedWhateverTheirPriority() {
        var queue = ReadyQueue()
        queue.appendRoot(0, priority: 8)
        queue.appendContinuing(1, depth: 1)
        #expect(queue.pop(allowingRoots: false)?.node == 1)
        #expect(queue.pop(allowingRoots: false) == nil)
        #expect(queue.pop(allowingRoots: true)?.node == 0)
    }
}
