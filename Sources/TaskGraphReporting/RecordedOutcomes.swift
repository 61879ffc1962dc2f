import Foundation
import TaskGraphCore

/// Reads how each operation ended from a JSON Lines event file written by `run --events`, so a
/// later `taskgraph graph --events` can colour the graph. Reads back what `JSONEventWriter`
/// wrote, whole: the kind of end and its details (failure reason, time limit, failed
/// dependency).
public enum RecordedOutcomes {
    /// The keys of an event line that tell how an operation ended.
    private struct FinalEvent: Decodable {
        let event: String
        let id: String?
        let reason: String?
        let timeout: Double?
        let because: String?
    }

    /// The final outcome of every operation id in the event file at `path`. Lines that are not
    /// an operation's final event, or lack a detail its kind needs, are ignored. Blocking.
    /// - Throws: `OperationError.readFailed` if the file cannot be read,
    ///   `RecordedRunError.outOfRange` for a time limit no run had.
    public static func load(_ path: String) throws -> [String: NodeOutcome] {
        let decoder = JSONDecoder()
        var outcomes: [String: NodeOutcome] = [:]
        // Unbounded: a large run's event file may pass the default read limit.
        let lines = try FileIO.read(path, limit: .max).split(
            separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (number, line) in lines.enumerated() {
            guard let event = try? decoder.decode(FinalEvent.self, from: Data(line)), let id = event.id,
                let kind = NodeOutcome.Kind(eventName: event.event)
            else { continue }
            try RecordedRunError.checkSeconds([("timeout", event.timeout)], source: path, line: number + 1)
            guard let outcome = outcome(kind, of: event) else { continue }
            outcomes[id] = outcome
        }
        return outcomes
    }

    /// The outcome of kind `kind` with the details `event` records, or nil if one is missing.
    private static func outcome(_ kind: NodeOutcome.Kind, of event: FinalEvent) -> NodeOutcome? {
        switch kind {
        case .succeeded: .succeeded
        case .cached: .cached
        case .failed: event.reason.map(NodeOutcome.failed)
        case .timedOut: event.timeout.map { .timedOut(JSONText.duration(seconds: $0)) }
        case .cancelled: .cancelled
        case .skipped: event.because.map(NodeOutcome.skipped(because:))
        case .bypassed: event.reason.map(NodeOutcome.bypassed)
        case .notStarted: .notStarted
        }
    }
}
