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
}
