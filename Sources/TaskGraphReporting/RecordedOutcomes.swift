import Foundation
import TaskGraphCore

/// Reads how each operation ended from a JSON Lines event file written by `run --events`, so a
/// later `taskgraph graph --events` can colour the graph.
public enum RecordedOutcomes {
    /// The final outcome of every operation id in the event file at `path`. Blocking.
    /// - Throws: `OperationError.readFailed` if the file cannot be read.
    public static func load(_ path: String) throws -> [String: NodeOutcome] {
        let text = String(decoding: try FileIO.read(path), as: UTF8.self)
        var outcomes: [String: NodeOutcome] = [:]
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let event = object["event"] as? String, let id = object["id"] as? String,
                let outcome = outcome(named: event, reason: object["reason"] as? String ?? "",
                                      because: object["because"] as? String ?? "")
            else { continue }
            outcomes[id] = outcome
        }
        return outcomes
    }

    private static func outcome(named event: String, reason: String, because: String) -> NodeOutcome? {
        switch event {
        case "succeeded": .succeeded
        case "failed": .failed(reason)
        case "timed_out": .timedOut(.zero)
        case "cancelled": .cancelled
        case "skipped": .skipped(because: because)
        case "not_started": .notStarted
        default: nil
        }
    }
}
