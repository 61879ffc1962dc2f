import Foundation
import TaskGraphCore

/// Writes the engine's events as JSON Lines, one object per line, as they happen.
///
/// Every line has `event`, `time` (seconds since the run started) and `timestamp` (RFC 3339,
/// UTC). Operation events add `id` and `type`. The schema is documented in `docs/events.md`
/// and `docs/events.schema.json`; it only grows (new keys, new events), never changes meaning.
public struct JSONEventWriter: EventSink {
    /// The schema version written in `run_started`.
    public static let schemaVersion = 1

    private let ids: [String]
    private let types: [String]
    private let pipeline: String
    private let output: TextOutput
    private let start = Date()

    /// A writer for a run of `graph` (from the pipeline called `pipeline`) to `output`.
    public init(graph: ExecutionGraph, pipeline: String, output: TextOutput) {
        ids = graph.nodes.map(\.id)
        types = graph.nodes.map(\.type)
        self.pipeline = pipeline
        self.output = output
    }

    public func receive(_ event: EngineEvent) {
        var fields = [
            ("event", JSONText.quoted(Self.name(of: event.kind))),
            ("time", JSONText.seconds(event.elapsed)),
            ("timestamp", JSONText.quoted(JSONText.timestamp(start + Double(JSONText.microseconds(event.elapsed)) / 1e6))),
        ]
        fields += details(of: event.kind)
        output.write("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n")
    }

    /// The `event` value for a kind.
    static func name(of kind: EngineEvent.Kind) -> String {
        switch kind {
        case .runStarted: "run_started"
        case .nodeQueued: "queued"
        case .nodeCacheDecided: "cache"
        case .warning: "warning"
        case .nodeStarted: "started"
        case .nodeProgress(_, let update): update.message == nil ? "progress" : "log"
        case .nodeRetrying: "retried"
        case .nodeFinished(_, let outcome): outcome.kind.eventName
        case .runPaused: "paused"
        case .runResumed: "resumed"
        case .runFinished: "run_finished"
        }
    }

    /// The keys an operation's final event adds for its outcome's details, so that
    /// `RecordedOutcomes` reads the outcome back whole: `reason` for a failure, `reason` and
    /// `timeout` (the limit, in seconds) for a timeout, `because` for a skip, `reason` for a node
    /// whose `when:` rule was not met.
    static func fields(of outcome: NodeOutcome) -> [(String, String)] {
        switch outcome {
        case .succeeded, .cached, .cancelled, .notStarted: []
        case .failed(let message), .bypassed(let message): [("reason", JSONText.quoted(message))]
        case .timedOut(let limit): [("reason", JSONText.quoted(outcome.reason)), ("timeout", JSONText.seconds(limit))]
        case .skipped(let cause): [("because", JSONText.quoted(cause))]
        }
    }

    private func node(_ index: Int) -> [(String, String)] {
        [("id", JSONText.quoted(ids[index])), ("type", JSONText.quoted(types[index]))]
    }

    private func details(of kind: EngineEvent.Kind) -> [(String, String)] {
        switch kind {
        case .runStarted(let count):
            return [("schema_version", "\(Self.schemaVersion)"), ("pipeline", JSONText.quoted(pipeline)),
                    ("operations", "\(count)")]
        case .nodeQueued(let index):
            return node(index)
        case .nodeCacheDecided(let index, let decision):
            var cache = [("status", JSONText.quoted(decision.status.rawValue)), ("reason", JSONText.quoted(decision.reason.rawValue)),
                         ("detail", JSONText.quoted(decision.detail))]
            if let root = decision.rootCause { cache.append(("root_cause", JSONText.quoted(root))) }
            return node(index) + [("cache", "{" + cache.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")]
        case .warning(let index, let message):
            return (index.map(node) ?? []) + [("message", JSONText.quoted(message))]
        case .nodeStarted(let index, let attempt, let lane):
            return node(index) + [("attempt", "\(attempt)"), ("lane", "\(lane)")]
        case .nodeProgress(let index, let update):
            if let message = update.message { return node(index) + [("message", JSONText.quoted(message))] }
            return node(index) + [("completed", "\(update.completed)"),
                                  ("total", update.total.map(String.init) ?? "null"),
                                  ("unit", JSONText.quoted(update.unit.rawValue))]
        case .nodeRetrying(let index, let attempt, let message, let delay):
            return node(index) + [("attempt", "\(attempt)"), ("message", JSONText.quoted(message)),
                                  ("delay", JSONText.seconds(delay))]
        case .nodeFinished(let index, let outcome):
            return node(index) + Self.fields(of: outcome)
        case .runPaused, .runResumed:
            return []
        case .runFinished(let report):
            let countText = report.counts.map { (name: $0.key.eventName, count: $0.value) }.sorted { $0.name < $1.name }
                .map { "\"\($0.name)\":\($0.count)" }.joined(separator: ",")
            return [("wall_time", JSONText.seconds(report.wallTime)), ("cancelled", "\(report.wasCancelled)"),
                    ("counts", "{\(countText)}")]
        }
    }
}
