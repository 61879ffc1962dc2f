import Foundation
import Synchronization
import TaskGraphCore

/// Records where time went and writes it as a Chrome trace-event file (opens in Perfetto or
/// chrome://tracing): one row per worker lane, one complete event per operation that ran,
/// from its first start to its end, with its state and attempts.
public final class TraceRecorder: EventSink, Sendable {
    private struct Span {
        var start: Duration
        var lane: Int
        var attempts: Int
    }

    private struct State {
        var open: [Int: Span] = [:]
        var events: [String] = []
        var lanes: Set<Int> = []
        /// Whether any node reused a stored result (they get a row of their own).
        var hasHits = false
    }

    private let ids: [String]
    private let types: [String]
    private let state = Locked(State())

    /// A recorder for a run of `graph`.
    public init(graph: ExecutionGraph) {
        ids = graph.nodes.map(\.id)
        types = graph.nodes.map(\.type)
    }

    public func receive(_ event: EngineEvent) {
        state.withLock { state in
            switch event.kind {
            case .nodeStarted(let node, let attempt, let lane):
                if state.open[node] == nil {
                    state.open[node] = Span(start: event.elapsed, lane: lane, attempts: attempt)
                } else {
                    state.open[node]?.attempts = attempt
                }
                state.lanes.insert(lane)
            case .nodeFinished(let node, .cached):
                // A reused result: an instant on its own row, since nothing ran.
                state.hasHits = true
                state.events.append(
                    "{\"name\":\(JSONText.quoted(ids[node])),\"cat\":\(JSONText.quoted(types[node])),"
                        + "\"ph\":\"i\",\"s\":\"t\",\"ts\":\(JSONText.microseconds(event.elapsed)),\"pid\":1,\"tid\":0,"
                        + "\"args\":{\"state\":\"cached\"}}")
            case .nodeFinished(let node, let outcome):
                guard let span = state.open.removeValue(forKey: node) else { return }
                let start = JSONText.microseconds(span.start)
                let duration = max(JSONText.microseconds(event.elapsed) - start, 1)
                state.events.append(
                    "{\"name\":\(JSONText.quoted(ids[node])),\"cat\":\(JSONText.quoted(types[node])),"
                        + "\"ph\":\"X\",\"ts\":\(start),\"dur\":\(duration),\"pid\":1,\"tid\":\(span.lane + 1),"
                        + "\"args\":{\"state\":\(JSONText.quoted(outcome.kind.eventName)),"
                        + "\"attempts\":\(span.attempts)}}")
            default:
                break
            }
        }
    }

    /// The trace as JSON.
    public func json() -> String {
        state.withLock { state in
            let names = state.lanes.sorted().map { lane in
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(lane + 1),\"args\":{\"name\":\"lane \(lane)\"}}"
            }
            let hits = state.hasHits
                ? ["{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"cached\"}}"] : []
            let process = "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"taskgraph\"}}"
            return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n"
                + ([process] + hits + names + state.events).joined(separator: ",\n") + "\n]}\n"
        }
    }

    /// Writes the trace to `path` atomically. Blocking: call through `BlockingIO.run`.
    /// - Throws: `OperationError.writeFailed` if the file cannot be written.
    public func write(to path: String) throws {
        try FileIO.writeAtomically(Data(json().utf8), to: path)
    }
}
