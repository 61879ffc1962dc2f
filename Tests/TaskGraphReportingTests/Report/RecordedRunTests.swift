import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore
@testable import TaskGraphReporting

@Suite struct RecordedRunTests {
    /// `fetch` then `work` needing it, in pool `net`, and one node of every other outcome.
    private func recordedChain() throws -> RecordedRun {
        var graph = try graphOfEveryKind()
        let fetch = try graph.add(
            "fetch", action: ClosureAction { _ in EmptyResult() }, settings: NodeSettings(pool: "net"))
        try graph.add("work", action: ClosureAction { _ in EmptyResult() }, needs: [fetch])
        let recorder = ReportRecorder(graph: graph, pipeline: "chain", command: ["taskgraph", "run", "chain.yaml"])
        let (fetchIndex, workIndex) = (everyOutcome.count, everyOutcome.count + 1)
        let events: [(Double, EngineEvent.Kind, ResourceUsage?)] = [
            (0, .runStarted(nodeCount: graph.nodes.count), nil),
            (0.5, .nodeQueued(node: fetchIndex), nil),
            (1, .nodeStarted(node: fetchIndex, attempt: 1, lane: 2), nil),
            (1.5, .nodeStarted(node: fetchIndex, attempt: 2, lane: 2), nil),
            (
                3, .nodeFinished(node: fetchIndex, outcome: .succeeded),
                ResourceUsage(userCPU: 0.25, systemCPU: 0.5, maxResidentBytes: 4096)
            ),
            (3, .nodeQueued(node: workIndex), nil),
            (3.5, .nodeStarted(node: workIndex, attempt: 1, lane: 0), nil),
            (7, .nodeFinished(node: workIndex, outcome: .succeeded), nil),
        ]
        for (seconds, kind, usage) in events {
            recorder.receive(EngineEvent(elapsed: .milliseconds(Int64(seconds * 1000)), kind: kind, usage: usage))
        }
        for (node, outcome) in everyOutcome.enumerated() { recorder.receive(finished(node, outcome)) }
        let report = RunReport(nodes: [], wallTime: .seconds(8), wasCancelled: false, finalResults: [:])
        recorder.receive(EngineEvent(elapsed: .seconds(8), kind: .runFinished(report)))
        return try recorder.recordedRun()
    }

    @Test func readsBackTimesAttemptsPoolsNeedsAndUsage() throws {
        let run = try recordedChain()
        #expect(run.pipeline == "chain" && run.command == ["taskgraph", "run", "chain.yaml"])
        #expect(run.finished && !run.cancelled && run.wallTime == 8)
        let fetch = try #require(run.operations.first { $0.id == "fetch" })
        #expect((fetch.queueWait, fetch.runTime, fetch.attempts, fetch.lane, fetch.pool) == (0.5, 2, 2, 2, "net"))
        #expect(fetch.usage == ResourceUsage(userCPU: 0.25, systemCPU: 0.5, maxResidentBytes: 4096))
        let work = try #require(run.operations.first { $0.id == "work" })
        #expect(work.needs == ["fetch"] && work.pool == nil && work.usage == nil && work.runTime == 3.5)
        #expect(run.criticalPath().map { run.operations[$0].id } == ["fetch", "work"])
    }

    @Test func keepsEveryOutcomeWithItsReasonAndTheExitStatus() throws {
        let run = try recordedChain()
        for outcome in everyOutcome {
            let operation = try #require(run.operations.first { $0.id == "op-\(outcome.kind.eventName)" })
            #expect(operation.outcome == outcome.kind)
            #expect(operation.reason == outcome.reason)
        }
        #expect(run.exitStatus == 1)
        #expect(run.counts[.succeeded] == 3)
    }

    @Test func refusesWhatIsNotAnEventStream() {
        let notJSON = Data("{\"event\":\"run_started\",\"time\":0}\nhello\n".utf8)
        #expect(throws: RecordedRunError.notAnEvent(source: "x.jsonl", line: 2)) {
            try RecordedRun.read(notJSON, source: "x.jsonl")
        }
        let noStart = Data("{\"event\":\"queued\",\"id\":\"a\",\"type\":\"exec\",\"time\":0}\n".utf8)
        #expect(throws: RecordedRunError.noRunStarted(source: "x.jsonl")) {
            try RecordedRun.read(noStart, source: "x.jsonl")
        }
    }

    @Test func ignoresALastLineCutShort() throws {
        let data = Data("{\"event\":\"run_started\",\"time\":0,\"pipeline\":\"p\"}\n{\"event\":\"queu".utf8)
        let run = try RecordedRun.read(data, source: "x.jsonl")
        #expect(run.pipeline == "p" && run.operations.isEmpty && !run.finished && run.exitStatus == nil)
    }
}
