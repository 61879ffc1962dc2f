import Foundation
import Synchronization

@testable import TaskGraphCore

/// Collects events for assertions.
final class EventLog: EventSink {
    private let events = Locked<[EngineEvent.Kind]>([])
    /// Called with each `nodeFinished` event, after it is logged.
    private let onFinished: (@Sendable (_ node: Int, _ outcome: NodeOutcome) -> Void)?

    init(onFinished: (@Sendable (_ node: Int, _ outcome: NodeOutcome) -> Void)? = nil) {
        self.onFinished = onFinished
    }

    func receive(_ event: EngineEvent) {
        events.withLock { $0.append(event.kind) }
        if let onFinished, case .nodeFinished(let node, let outcome) = event.kind { onFinished(node, outcome) }
    }

    /// The ids of the nodes added during the run, by the index of the first of each batch.
    var added: [Int: [String]] {
        events.withLock { events in
            var added: [Int: [String]] = [:]
            for case .nodesAdded(let first, let nodes) in events { added[first] = nodes.map(\.id) }
            return added
        }
    }

    /// Node indices in the order they started (first attempts only).
    var startOrder: [Int] {
        events.withLock { events in
            events.compactMap { if case .nodeStarted(let node, 1, _) = $0 { node } else { nil } }
        }
    }

    /// Where each node ran, as positions in the event stream: from its first `nodeStarted` to its
    /// `nodeFinished`. Events are emitted in the order the scheduler decides (a node's end is
    /// reported before the slot it frees is reused), so positions order them faithfully.
    var spans: [Int: EventSpan] {
        events.withLock { events in
            var starts: [Int: Int] = [:]
            var spans: [Int: EventSpan] = [:]
            for (position, event) in events.enumerated() {
                switch event {
                case .nodeStarted(let node, 1, _): starts[node] = position
                case .nodeFinished(let node, _):
                    if let start = starts[node] { spans[node] = EventSpan(start: start, end: position) }
                default: break
                }
            }
            return spans
        }
    }

    /// The most nodes of `nodes` running at once, by the event stream.
    func peakRunning(of nodes: Set<Int>) -> Int {
        var running = 0
        var peak = 0
        for (_, edge) in spans.filter({ nodes.contains($0.key) }).flatMap({ [($1.start, 1), ($1.end, -1)] }).sorted(
            by: { $0.0 < $1.0 })
        {
            running += edge
            peak = max(peak, running)
        }
        return peak
    }

    /// The pause events, in order: `paused`, `resumed`.
    var pauses: [String] {
        events.withLock { events in
            events.compactMap {
                switch $0 {
                case .runPaused: "paused"
                case .runResumed: "resumed"
                default: nil
                }
            }
        }
    }

    /// Every retry event's node and attempt.
    var retries: [(node: Int, attempt: Int)] {
        events.withLock { events in
            events.compactMap {
                if case .nodeRetrying(let node, let attempt, _, _) = $0 { (node, attempt) } else { nil }
            }
        }
    }
}

/// Where a node ran in an event stream: the positions of its start and end events.
struct EventSpan {
    let start: Int
    let end: Int

    /// Whether the two ran at the same time.
    func overlaps(_ other: EventSpan) -> Bool { start < other.end && other.start < end }
}

/// Tracks how many actions run at once.
final class ConcurrencyGauge: Sendable {
    private let state = Locked((current: 0, peak: 0))

    func enter() {
        state.withLock {
            $0.current += 1
            $0.peak = max($0.peak, $0.current)
        }
    }
    func leave() { state.withLock { $0.current -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
}

/// An action that sleeps (cancellably) and records concurrency.
func sleeping(_ duration: Duration, gauge: ConcurrencyGauge? = nil) -> ClosureAction {
    ClosureAction { _ in
        gauge?.enter()
        defer { gauge?.leave() }
        try await Task.sleep(for: duration)
        return EmptyResult()
    }
}

/// An error for tests.
struct TestFailure: Error, CustomStringConvertible, RetryClassifying {
    var description: String
    var isRetryable = true
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let count = Locked(0)

    /// Adds one and returns the new value.
    @discardableResult
    func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
    var value: Int { count.withLock { $0 } }
}

/// Lets a test wait until an action has started.
final class Latch: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    /// Marks the latch as reached.
    func signal() { continuation.yield() }

    /// Waits until `signal()` was called.
    func wait() async {
        for await _ in stream { return }
    }
}
