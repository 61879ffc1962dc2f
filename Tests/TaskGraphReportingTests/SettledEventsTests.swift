import Foundation
import TaskGraphReporting
import Testing

@testable import TaskGraphCore

/// The operations a run reused before it started: the plain log shows them in one line, every
/// other sink gets each one's events in order, through the fan-out.
@Suite struct SettledEventsTests {
    /// Every event received, in order, as `queued 2`, `decided 2 hit unchanged`, `finished 2 cached`.
    private final class Recorder: EventSink {
        let events = Locked<[String]>([])

        func receive(_ event: EngineEvent) {
            let line =
                switch event.kind {
                case .nodeQueued(let node): "queued \(node)"
                case .nodeCacheDecided(let node, let decision): "decided \(node) \(decision.status) \(decision.reason)"
                case .nodeFinished(let node, let outcome): "finished \(node) \(outcome.kind)"
                default: "other"
                }
            events.withLock { $0.append(line) }
        }
    }

    @Test func thePlainLogShowsThemInOneLineAndOtherSinksGetEachOnesEvents() throws {
        let graph = try graphOfEveryKind()
        let (output, path) = try scratchOutput(named: "log")
        let recorder = Recorder()
        let sink = EventFanOut([PlainLogReporter(graph: graph, output: output), recorder])
        sink.receiveSettled([2, 0], elapsed: .zero)
        sink.receiveSettled([], elapsed: .zero)
        output.flush()
        #expect(try contents(of: path) == "[    0.0s] cached    2 operations: unchanged since the last run\n")
        #expect(
            recorder.events.withLock { $0 } == [
                "queued 2", "decided 2 hit unchanged", "finished 2 cached",
                "queued 0", "decided 0 hit unchanged", "finished 0 cached",
            ])
    }

    @Test func oneOperationIsNamedInTheSingular() throws {
        let (output, path) = try scratchOutput(named: "log")
        PlainLogReporter(graph: try graphOfEveryKind(), output: output).receiveSettled([1], elapsed: .seconds(1.25))
        output.flush()
        #expect(try contents(of: path) == "[    1.3s] cached    1 operation: unchanged since the last run\n")
    }
}
