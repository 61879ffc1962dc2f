import CYAML
import Dispatch
import Foundation
import TaskGraphBasics

/// libyaml's events for a text, parsed on a thread of their own while the caller composes the
/// events already read, so parsing and composing a large file share the two cores. Events
/// arrive in batches, in order; a parse error ends the stream where it occurs.
///
/// At most `maximumBatches` batches wait at a time, so the parser never runs far ahead. Blocking:
/// use it where `Pipeline.load` runs (a `BlockingIO` thread), and `close()` it when done.
final class YAMLEventStream: Sendable {
    /// What the parser thread hands over: a batch of events, or the error that ended parsing.
    typealias Batch = Result<[YAMLEvent], YAMLComposer.Failure>

    /// Events per batch: large enough that handing one over costs little per event.
    static let batchSize = 1_024
    /// Batches parsed ahead of the composer at most.
    static let maximumBatches = 8

    private struct State {
        var batches: [Batch] = []
        var closed = false
    }

    private let state = Locked(State())
    /// Counts batches ready to take.
    private let ready = DispatchSemaphore(value: 0)
    /// Counts free places for batches.
    private let room = DispatchSemaphore(value: maximumBatches)
    /// Signalled when the parser thread has stopped.
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts parsing `text`, reporting locations in `file`.
    init(text: String, file: String) {
        Thread.detachNewThread { [self] in
            parse(text, file: file)
            stopped.signal()
        }
    }

    /// The next batch, waiting for it if the parser is behind. Call only until a batch holds
    /// the stream's end or an error.
    func next() -> Batch {
        ready.wait()
        defer { room.signal() }
        return state.withLock { $0.batches.removeFirst() }
    }

    /// Stops the parser thread (if it is still running) and waits until it has.
    func close() {
        state.withLock { $0.closed = true }
        room.signal()
        stopped.wait()
    }

    /// Parses on the parser thread, handing over batches until the end, an error or `close()`.
    private func parse(_ text: String, file: String) {
        var text = text // `withUTF8` reads a native string's bytes in place, without a copy
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            let start = SourceLocation(file: file, line: 1, column: 1)
            _ = hand(.failure(YAMLComposer.Failure(diagnostic: .error("cannot start the YAML parser", at: start))))
            return
        }
        defer { yaml_parser_delete(&parser) }
        text.withUTF8 { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var batch: [YAMLEvent] = []
            batch.reserveCapacity(Self.batchSize)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let failure = YAMLComposer.Failure(diagnostic: Self.parseError(parser, file: file))
                    if hand(.success(batch)) { _ = hand(.failure(failure)) }
                    return
                }
                let copied = YAMLEvent(event, file: file)
                yaml_event_delete(&event)
                batch.append(copied)
                guard copied.kind != .streamEnd else {
                    _ = hand(.success(batch))
                    return
                }
                if batch.count == Self.batchSize {
                    guard hand(.success(batch)) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// Queues `batch` once there is room; false if the stream was closed instead.
    private func hand(_ batch: Batch) -> Bool {
        room.wait()
        let open = state.withLock { state in
            if !state.closed { state.batches.append(batch) }
            return !state.closed
        }
        if open { ready.signal() }
        return open
    }

    private static func parseError(_ parser: yaml_parser_t, file: String) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        if parser.error == YAML_READER_ERROR {
            return .error("invalid YAML text: \(problem)", at: SourceLocation(file: file, line: 1, column: 1))
        }
        var context = ""
        if let text = parser.context {
            context =
                " (\(String(cString: text)) at line \(parser.context_mark.line + 1), column "
                + "\(parser.context_mark.column + 1))"
        }
        return .error("invalid YAML: \(problem)\(context)", at: YAMLEvent.location(parser.problem_mark, file: file))
    }
}
