/// The `NodeHistory` of every node of a run, written without taking the run's lock.
///
/// Safe to share (`@unchecked Sendable`) because every slot has one writer at a time and is read
/// only after it was written, with the run's lock ordering the two:
/// - a node's slot is written by the one worker the node was assigned to, before that worker
///   reports it finished under the lock; a node that never starts is written by `RunState`
///   under the lock when it is skipped. Assigning and skipping are both decided under the
///   lock, and a node is assigned or skipped at most once, so two threads never write one slot;
/// - the report reads the slots under the lock after every worker has reported, so each write
///   happens before the read.
final class NodeHistories: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<NodeHistory>

    /// Histories for `count` nodes that have not run.
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: NodeHistory())
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    /// The history of `node`.
    subscript(node: Int) -> NodeHistory {
        slots[node]
    }

    /// Records how `node` went. Each node is recorded once, over the empty history it started
    /// with, which holds nothing to release: so the slot is written without first being read
    /// (on a large graph, reading it would be a cache miss per node).
    func record(_ history: NodeHistory, for node: Int) {
        (slots.baseAddress! + node).initialize(to: history)
    }
}
