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
    private let pools: [String?]
    private let needs: [[Int]]
    private let added: AddedNodes
    private let pipeline: String
    private let command: [String]
    private let emit: @Sendable (String) -> Void
    private let start = Date()

    /// A writer for a run of `graph` (from the pipeline called `pipeline`) to `output`.
    /// - Parameter command: the command line, written in `run_started` when not empty.
    public init(graph: ExecutionGraph, pipeline: String, output: TextOutput, command: [String] = []) {
        self.init(graph: graph, pipeline: pipeline, command: command, emit: output.write)
    }

    /// A writer that hands every line (newline included) to `emit`.
    init(graph: ExecutionGraph, pipeline: String, command: [String], emit: @escaping @Sendable (String) -> Void) {
        ids = graph.nodes.map { $0.id }
        types = graph.nodes.map { $0.type }
        pools = graph.nodes.map { $0.settings.pool }
        needs = graph.nodes.map { $0.dependencies }
        added = AddedNodes(after: graph)
        self.pipeline = pipeline
        self.command = command
        self.emit = emit
    }

    public func receive(_ event: EngineEvent) {
        guard Self.isWritten(event) else { return }
        emit(line(for: event))
    }

    /// Whether `event` has a line in the stream: programs' lines are for people
    /// (`ProgramOutputLog`), not in it.
    static func isWritten(_ event: EngineEvent) -> Bool {
        guard case .nodeProgress(_, let update) = event.kind else { return true }
        return update.output == nil
    }

    /// The JSON line (newline included) for `event`.
    func line(for event: EngineEvent) -> String {
        added.receive(event.kind)
        var fields = [
            ("event", JSONText.quoted(Self.name(of: event.kind))),
            ("time", JSONText.seconds(event.elapsed)),
            (
                "timestamp",
                JSONText.quoted(JSONText.timestamp(start + Double(JSONText.microseconds(event.elapsed)) / 1e6))
            ),
        ]
        fields += details(of: event.kind)
        if let usage = event.usage { fields += Self.fields(of: usage) }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
    }

    /// The `event` value for a kind.
    static func name(of kind: EngineEvent.Kind) -> String {
        switch kind {
        case .runStarted: "run_started"
        case .nodesAdded: "added"
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

    /// The keys a final event adds for what the operation used: `cpu_user` and `cpu_system`
    /// (seconds), and when measured `max_rss`, `bytes_read` and `bytes_written` (bytes).
    static func fields(of usage: ResourceUsage) -> [(String, String)] {
        let measured = [
            ("max_rss", usage.maxResidentBytes), ("bytes_read", usage.bytesRead), ("bytes_written", usage.bytesWritten),
        ]
        return [
            ("cpu_user", String(format: "%.6f", usage.userCPU)),
            ("cpu_system", String(format: "%.6f", usage.systemCPU)),
        ]
            + measured.compactMap { name, value in value.map { (name, "\($0)") } }
    }

    /// A remote job's status as a `log` event's `job` object: `id`, `state`, and when known
    /// `reason`, `queue_wait` and `run_time` (seconds).
    static func json(of status: RemoteJobStatus) -> String {
        var fields = [("id", JSONText.quoted(status.job)), ("state", JSONText.quoted(status.state))]
        if let reason = status.reason { fields.append(("reason", JSONText.quoted(reason))) }
        if let wait = status.queueWait { fields.append(("queue_wait", JSONText.seconds(wait))) }
        if let run = status.runTime { fields.append(("run_time", JSONText.seconds(run))) }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private func node(_ index: Int) -> [(String, String)] {
        let (id, type) = index < added.first ? (ids[index], types[index]) : (added[index].id, added[index].type)
        return [("id", JSONText.quoted(id)), ("type", JSONText.quoted(type))]
    }

    private func id(_ index: Int) -> String {
        index < added.first ? ids[index] : added[index].id
    }

    private func details(of kind: EngineEvent.Kind) -> [(String, String)] {
        switch kind {
        case .runStarted(let count):
            let started = [
                ("schema_version", "\(Self.schemaVersion)"), ("pipeline", JSONText.quoted(pipeline)),
                ("operations", "\(count)"),
            ]
            return started + (command.isEmpty ? [] : [("command", JSONText.array(command))])
        case .nodesAdded(let first, let nodes):
            return [("first", "\(first)"), ("ids", JSONText.array(nodes.map(\.id)))]
        case .nodeQueued(let index):
            return node(index)
        case .nodeCacheDecided(let index, let decision):
            var cache = [
                ("status", JSONText.quoted(decision.status.rawValue)),
                ("reason", JSONText.quoted(decision.reason.rawValue)),
                ("detail", JSONText.quoted(decision.detail)),
            ]
            if let root = decision.rootCause { cache.append(("root_cause", JSONText.quoted(root))) }
            return node(index) + [("cache", "{" + cache.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")]
        case .warning(let index, let message):
            return (index.map(node) ?? []) + [("message", JSONText.quoted(message))]
        case .nodeStarted(let index, let attempt, let lane):
            return node(index) + [("attempt", "\(attempt)"), ("lane", "\(lane)")]
                + ((index < added.first ? pools[index] : added[index].pool).map { [("pool", JSONText.quoted($0))] }
                    ?? [])
        case .nodeProgress(let index, let update):
            if let message = update.message {
                return node(index) + [("message", JSONText.quoted(message))]
                    + (update.remote.map { [("job", Self.json(of: $0))] } ?? [])
            }
            return node(index) + [
                ("completed", "\(update.completed)"),
                ("total", update.total.map(String.init) ?? "null"),
                ("unit", JSONText.quoted(update.unit.rawValue)),
            ]
        case .nodeRetrying(let index, let attempt, let message, let delay):
            return node(index) + [
                ("attempt", "\(attempt)"), ("message", JSONText.quoted(message)),
                ("delay", JSONText.seconds(delay)),
            ]
        case .nodeFinished(let index, let outcome):
            let needed = index < added.first ? needs[index] : added[index].needs
            return node(index) + Self.fields(of: outcome) + [("needs", JSONText.array(needed.map(id)))]
        case .runPaused, .runResumed:
            return []
        case .runFinished(let report):
            let countText = report.counts.map { (name: $0.key.eventName, count: $0.value) }.sorted { $0.name < $1.name }
                .map { "\"\($0.name)\":\($0.count)" }.joined(separator: ",")
            return [
                ("wall_time", JSONText.seconds(report.wallTime)), ("cancelled", "\(report.wasCancelled)"),
                ("counts", "{\(countText)}"),
            ]
        }
    }
}
