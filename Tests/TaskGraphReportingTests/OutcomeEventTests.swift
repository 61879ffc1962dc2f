import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphReporting

/// The event stream and `graph --events` share the outcome vocabulary, and what one writes the
/// other reads back whole.
@Suite struct OutcomeEventTests {
    /// Writes a run where node `i` ends with `everyOutcome[i]`; returns the event file's path.
    private func writeEveryOutcome() throws -> String {
        let graph = try graphOfEveryKind()
        let (output, path) = try scratchOutput(named: "events.jsonl")
        let writer = JSONEventWriter(graph: graph, pipeline: "kinds", output: output)
        for (node, outcome) in everyOutcome.enumerated() { writer.receive(finished(node, outcome)) }
        let records = zip(graph.nodes, everyOutcome).map { node, outcome in
            RunReport.NodeRecord(id: node.id, type: node.type, outcome: outcome, attempts: 1, summary: "")
        }
        writer.receive(
            EngineEvent(
                elapsed: .seconds(2),
                kind: .runFinished(
                    RunReport(nodes: records, wallTime: .seconds(2), wasCancelled: true, finalResults: [:]))))
        output.flush()
        return path
    }

    @Test func everyOutcomeIsWrittenWithItsDetails() throws {
        let lines = try contents(of: try writeEveryOutcome()).split(separator: "\n").map {
            $0.replacing(#/"time":[0-9.]+,"timestamp":"[^"]+",/#, with: "")
        }
        let expected: [Substring] = [
            #"{"event":"succeeded","id":"op-succeeded","type":"action","needs":[]}"#,
            #"{"event":"cached","id":"op-cached","type":"action","needs":[]}"#,
            #"{"event":"failed","id":"op-failed","type":"action","reason":"'sh' exited with status 3: \"disk\" on "#
                + #"fire","needs":[]}"#,
            #"{"event":"timed_out","id":"op-timed_out","type":"action","reason":"timed out after 1500ms","#
                + #""timeout":1.500000,"needs":[]}"#,
            #"{"event":"cancelled","id":"op-cancelled","type":"action","needs":[]}"#,
            #"{"event":"skipped","id":"op-skipped","type":"action","because":"fetch[lake]","needs":[]}"#,
            #"{"event":"bypassed","id":"op-bypassed","type":"action","reason":"when: failure, and nothing it "#
                + #"needs failed","needs":[]}"#,
            #"{"event":"not_started","id":"op-not_started","type":"action","needs":[]}"#,
            #"{"event":"run_finished","wall_time":2.000000,"cancelled":true,"counts":{"bypassed":1,"cached":1,"#
                + #""cancelled":1,"failed":1,"not_started":1,"skipped":1,"succeeded":1,"timed_out":1}}"#,
        ]
        #expect(lines == expected)
    }

    @Test func everyOutcomeReadsBackWhole() throws {
        let recorded = try RecordedOutcomes.load(try writeEveryOutcome())
        let expected = Dictionary(
            uniqueKeysWithValues: zip(NodeOutcome.Kind.allCases.map { "op-\($0.eventName)" }, everyOutcome))
        #expect(recorded == expected)
    }

    @Test func aFinalEventWithoutTheDetailsOfItsKindIsIgnored() throws {
        let (output, path) = try scratchOutput(named: "events.jsonl")
        output.write(
            """
            {"event":"timed_out","id":"old","type":"exec","reason":"timed out after 2s"}
            {"event":"failed","id":"bare","type":"exec"}
            {"event":"paused","id":"future","type":"exec"}
            {"event":"succeeded","id":"fine","type":"exec"}
            {"event":"cached","id":"reused","type":"exec"}

            """)
        output.flush()
        #expect(try RecordedOutcomes.load(path) == ["fine": .succeeded, "reused": .cached])
    }

    @Test func kindsHaveOneLabelAndOneEventNameEach() {
        #expect(
            NodeOutcome.Kind.allCases.map(\.label) == [
                "ok", "cached", "failed", "timed out", "cancelled", "skipped", "bypassed", "not started",
            ])
        #expect(
            NodeOutcome.Kind.allCases.map(\.eventName)
                == ["succeeded", "cached", "failed", "timed_out", "cancelled", "skipped", "bypassed", "not_started"])
        #expect(NodeOutcome.Kind.allCases.allSatisfy { NodeOutcome.Kind(eventName: $0.eventName) == $0 })
        #expect(everyOutcome.map(\.kind) == NodeOutcome.Kind.allCases)
        #expect(NodeOutcome.Kind.allCases.filter(\.isFailure) == [.failed, .timedOut])
    }
}
