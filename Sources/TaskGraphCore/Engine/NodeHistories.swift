/// The `NodeHistory` of every node of a run, written without taking the run's lock.
///
/// Safe to share (`@unchecked Sendable`) because every slot has one writer at a time and is read
/// only after it was written, with the run's lock ordering the two:
/// - a node's slot is written by the one worker the node was assigned to, before that worker
///   reports it finished under the lock; a node that never starts is written by `RunState`
///   under the lock when it is skipped. Assigning and skipping are both decided under the
///   lock, and a node is assigned or skipped at most once, so two threads never write one slot;
/// - the report reads the slots under the lock after every worker has reported, so each write
///   happens before the read;
/// - slots for nodes added during the run (`grow(to:)`, under the lock) live in new segments:
///   segments never move, and a segment's pointer is written under the lock before any node in
///   it can be assigned, so a worker reading it outside the lock sees it written.
final class NodeHistories: @unchecked Sendable {
    /// Segment `k` holds the nodes `first(k) ..< first(k + 1)`; segment 0 is the run's own nodes,
    /// later ones double in size, so a few dozen segments hold any graph.
    private let segments: UnsafeMutablePointer<UnsafeMutablePointer<NodeHistory>?>
    private static let maximumSegments = 40
    /// The number of nodes of segment 0 (at least 1).
    private let firstCount: Int
    /// How many nodes the run started with: later ones were added while it ran.
    let initialCount: Int

    /// Histories for `count` nodes that have not run.
    init(count: Int) {
        firstCount = max(count, 1)
        initialCount = count
        segments = .allocate(capacity: Self.maximumSegments)
        segments.initialize(repeating: nil, count: Self.maximumSegments)
        segments[0] = Self.allocateSegment(firstCount)
    }

    deinit {
        for segment in 0..<Self.maximumSegments {
            guard let slots = segments[segment] else { break }
            let count = segmentCount(segment)
            slots.deinitialize(count: count)
            slots.deallocate()
        }
        segments.deallocate()
    }

    /// Makes room for nodes `0..<count`. Called under the run's lock, before any of the new
    /// nodes can be assigned.
    func grow(to count: Int) {
        var segment = 0
        var end = firstCount
        while end < count {
            segment += 1
            precondition(segment < Self.maximumSegments, "Too many nodes")
            if segments[segment] == nil { segments[segment] = Self.allocateSegment(segmentCount(segment)) }
            end += segmentCount(segment)
        }
    }

    /// The history of `node`.
    subscript(node: Int) -> NodeHistory {
        slot(node).pointee
    }

    /// Records how `node` went. Each node is recorded once, over the empty history it started
    /// with, which holds nothing to release: so the slot is written without first being read
    /// (on a large graph, reading it would be a cache miss per node).
    func record(_ history: NodeHistory, for node: Int) {
        slot(node).initialize(to: history)
    }

    private func slot(_ node: Int) -> UnsafeMutablePointer<NodeHistory> {
        if node < firstCount { return segments[0]! + node }
        // Segment k ≥ 1 starts at firstCount · (2^k − 1) and holds firstCount · 2^k slots.
        let multiple = node / firstCount + 1
        let segment = Int.bitWidth - 1 - multiple.leadingZeroBitCount
        let start = firstCount * ((1 << segment) - 1)
        return segments[segment]! + (node - start)
    }

    private func segmentCount(_ segment: Int) -> Int {
        firstCount << segment
    }

    private static func allocateSegment(_ count: Int) -> UnsafeMutablePointer<NodeHistory> {
        let slots = UnsafeMutablePointer<NodeHistory>.allocate(capacity: count)
        slots.initialize(repeating: NodeHistory(), count: count)
        return slots
    }
}
