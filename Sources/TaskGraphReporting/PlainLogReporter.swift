import Foundation
import TaskGraphCore

/// Writes one readable line per event: what a log file or CI console should show.
///
///     [   0.0s] start     download[lake] (download)
///     [   1.2s] ok        download[lake] 1.2s  2.4 MB
///     [   1.3s] FAILED    tilt[lake]: 'convert' exited with status 1: bad input
///     [   1.3s] skipped   save[lake]: 'tilt[lake]' failed
public struct PlainLogReporter: EventSink {
    /// Each node's id and operation type: reading them from the graph's nodes would copy a
    /// whole node for each line.
    private let ids: [String]
    private let types: [String]
    private let added: AddedNodes
    private let output: TextOutput

    /// A reporter for a run of `graph` writing to `output`.
    public init(graph: ExecutionGraph, output: TextOutput = .standardError) {
        // Closures, not key paths: a key path into the core's node copied each whole node
        // first (5 ms for 10,000 nodes).
        ids = graph.nodes.map { $0.id }
        types = graph.nodes.map { $0.type }
        added = AddedNodes(after: graph)
        self.output = output
    }

    public func receive(_ event: EngineEvent) {
        guard let line = line(for: event.kind) else { return }
        write(line, at: event.elapsed)
    }

    /// One line for all the operations reused before the run started, as for a run where
    /// nothing changed: `cached    9886 operations: unchanged since the last run`.
    public func receiveSettled(_ nodes: [Int], elapsed: Duration) {
        guard !nodes.isEmpty else { return }
        write(
            "cached    \(nodes.count) operation\(nodes.count == 1 ? "" : "s"): unchanged since the last run",
            at: elapsed)
    }

    private func write(_ line: String, at elapsed: Duration) {
        let tenths = Int64((max(0, elapsed.inSeconds) * 10).rounded())
        // Ids, paths and reasons come from outside: no control character reaches the log raw.
        output.write("[" + DurationText.fixed(tenths, decimals: 1, width: 7) + "s] " + DisplayText.escaped(line) + "\n")
    }

    private func id(_ node: Int) -> String {
        node < added.first ? ids[node] : added[node].id
    }

    private func line(for kind: EngineEvent.Kind) -> String? {
        switch kind {
        case .runStarted(let count):
            return "run       \(count) operation\(count == 1 ? "" : "s")"
        case .nodesAdded(_, let nodes):
            added.receive(kind)
            return "added     \(nodes.count) operation\(nodes.count == 1 ? "" : "s")"
        case .nodeStarted(let node, let attempt, _):
            let retry = attempt > 1 ? " attempt \(attempt)" : ""
            return "start     \(id(node)) (\(node < added.first ? types[node] : added[node].type))\(retry)"
        case .nodeProgress(let node, let update):
            return update.message.map { "log       \(id(node)): \($0)" }
        case .nodeRetrying(let node, let attempt, let message, let delay):
            return "retry     \(id(node)) after attempt \(attempt) in \(DurationText.format(delay)): \(message)"
        case .nodeFinished(let node, let outcome):
            return finishedLine(id(node), outcome)
        case .warning(let node, let message):
            return "warning   " + (node.map { "\(id($0)): " } ?? "") + message
        case .runPaused:
            return "paused    nothing starts, running programs are stopped"
        case .runResumed:
            return "resumed"
        case .nodeCacheDecided(let node, let decision):
            return CorruptEntryWarning.message(for: decision).map { "warning   \(id(node)): \($0)" }
        case .nodeQueued, .runFinished:
            return nil
        }
    }

    private func finishedLine(_ id: String, _ outcome: NodeOutcome) -> String? {
        switch outcome.kind {
        case .succeeded: "ok        \(id)"
        case .cached: "cached    \(id)"
        case .failed, .timedOut: "FAILED    \(id): \(outcome.reason)"
        case .cancelled: "cancelled \(id)"
        case .skipped: "skipped   \(id): \(outcome.reason)"
        case .bypassed: "bypassed  \(id): \(outcome.reason)"
        case .notStarted: nil
        }
    }
}
