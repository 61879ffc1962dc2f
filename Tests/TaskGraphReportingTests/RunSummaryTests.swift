import TaskGraphReporting
import Testing

@testable import TaskGraphCore

@Suite struct RunSummaryTests {
    @Test func totalsCountEveryKindInKindOrder() throws {
        let graph = try graphOfEveryKind()
        let outcomes = everyOutcome + [.succeeded, .skipped(because: "op-failed")]
        let records = outcomes.enumerated().map { index, outcome in
            RunReport.NodeRecord(id: "n\(index)", type: "action", outcome: outcome, attempts: 1, summary: "")
        }
        let report = RunReport(nodes: records, wallTime: .milliseconds(3400), wasCancelled: false, finalResults: [:])
        #expect(
            report.counts == [
                .succeeded: 2, .cached: 1, .failed: 1, .timedOut: 1, .cancelled: 1, .skipped: 2, .bypassed: 1,
                .notStarted: 1,
            ])
        #expect(
            RunSummary(report: report, graph: graph).totalsLine()
                == "2 ok, 1 cached, 1 failed, 1 timed out, 1 cancelled, 2 skipped, 1 bypassed, 1 not started in 3.4s")
    }

    @Test func saysWhyANodeWithATriggerRuleRanOrDidNot() throws {
        var graph = ExecutionGraph()
        let action = ClosureAction { _ in EmptyResult() }
        let build = try graph.add("build", action: action)
        try graph.add("cleanup", action: action, needs: [build], settings: NodeSettings(when: .always))
        try graph.add("notify", action: action, needs: [build], settings: NodeSettings(when: .failure))
        let fine = try graph.add("fine", action: action)
        try graph.add("alert", action: action, needs: [fine], settings: NodeSettings(when: .failure))
        let outcomes: [(NodeOutcome, Int, String)] = [
            (.failed("exit 2"), 1, ""), (.succeeded, 1, ""), (.succeeded, 1, "3 B"), (.succeeded, 1, ""),
            (.bypassed("when: failure, and nothing it needs failed"), 0, ""),
        ]
        let records = zip(graph.nodes, outcomes).map { node, outcome in
            RunReport.NodeRecord(
                id: node.id, type: "action", outcome: outcome.0, attempts: outcome.1, startTime: .zero,
                endTime: outcome.1 > 0 ? .milliseconds(100) : nil, summary: outcome.2)
        }
        let report = RunReport(nodes: records, wallTime: .milliseconds(300), wasCancelled: false, finalResults: [:])
        var summary = RunSummary(report: report, graph: graph)
        summary.maximumRows = 10
        #expect(
            summary.render().split(separator: "\n").prefix(6) == [
                "operation  state        time      detail",
                "build      failed       100ms     exit 2",
                "cleanup    ok           100ms     when: always, after 'build' failed",
                "notify     ok           100ms     when: failure, after 'build' failed; 3 B",
                "fine       ok           100ms     ",
                "alert      bypassed     -         when: failure, and nothing it needs failed",
            ])
    }
}
