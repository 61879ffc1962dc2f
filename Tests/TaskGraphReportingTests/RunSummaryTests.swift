import Testing
@testable import TaskGraphCore
import TaskGraphReporting

@Suite struct RunSummaryTests {
    @Test func totalsCountEveryKindInKindOrder() throws {
        let graph = try graphOfEveryKind()
        let outcomes = everyOutcome + [.succeeded, .skipped(because: "op-failed")]
        let records = outcomes.enumerated().map { index, outcome in
            RunReport.NodeRecord(id: "n\(index)", type: "action", outcome: outcome, attempts: 1, summary: "")
        }
        let report = RunReport(nodes: records, wallTime: .milliseconds(3400), wasCancelled: false, finalResults: [:])
        #expect(report.counts == [.succeeded: 2, .cached: 1, .failed: 1, .timedOut: 1, .cancelled: 1, .skipped: 2, .notStarted: 1])
        #expect(RunSummary(report: report, graph: graph).totalsLine()
            == "2 ok, 1 cached, 1 failed, 1 timed out, 1 cancelled, 2 skipped, 1 not started in 3.4s")
    }
}
