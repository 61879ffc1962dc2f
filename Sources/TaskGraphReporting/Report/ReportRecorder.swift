import Foundation
import TaskGraphCore

/// Keeps a run's events as the JSON Lines `run --events` writes, so that `run --report` builds
/// its page from exactly what `taskgraph report EVENTS.jsonl` would read.
public final class ReportRecorder: EventSink, Sendable {
    private let encoder: JSONEventWriter
    private let lines = Locked([String]())

    /// A recorder for a run of `graph` (from the pipeline called `pipeline`, started with `command`).
    public init(graph: ExecutionGraph, pipeline: String, command: [String]) {
        encoder = JSONEventWriter(graph: graph, pipeline: pipeline, command: command) { _ in }
    }

    public func receive(_ event: EngineEvent) {
        guard JSONEventWriter.isWritten(event) else { return }
        let line = encoder.line(for: event)
        lines.withLock { $0.append(line) }
    }

    /// The run recorded so far.
    /// - Throws: `RecordedRunError` if the run has not started.
    public func recordedRun() throws(RecordedRunError) -> RecordedRun {
        let text = lines.withLock { $0.joined() }
        return try RecordedRun.read(Data(text.utf8), source: "the run's events")
    }
}
