import Foundation
import Testing

@testable import TaskGraphCore

/// `when:` decides whether a node runs from how the nodes it needs ended.
@Suite struct TriggerRuleTests {
    private let succeed = ClosureAction { _ in EmptyResult() }
    private let fail = ClosureAction { _ in throw TestFailure(description: "broken", isRetryable: false) }

    private func outcomes(_ report: RunReport) -> [String: NodeOutcome] {
        Dictionary(uniqueKeysWithValues: report.nodes.map { ($0.id, $0.outcome) })
    }

    @Test func alwaysRunsAfterAFailureAndWhatNeedsItRunsToo() async throws {
        var graph = ExecutionGraph()
        let build = try graph.add("build", action: fail)
        let test = try graph.add("test", action: succeed, needs: [build])
        let cleanup = try graph.add("cleanup", action: succeed, needs: [test], settings: NodeSettings(when: .always))
        try graph.add("report", action: succeed, needs: [cleanup])
        let report = await Engine().run(graph)
        #expect(
            outcomes(report) == [
                "build": .failed("broken"), "test": .skipped(because: "build"), "cleanup": .succeeded,
                "report": .succeeded,
            ])
        #expect(report.hasFailures)
    }

    @Test func alwaysWaitsForEveryNeedToEnd() async throws {
        var graph = ExecutionGraph()
        let quick = try graph.add("quick", action: fail)
        let slow = try graph.add("slow", action: sleeping(.milliseconds(100)))
        try graph.add("cleanup", action: succeed, needs: [quick, slow], settings: NodeSettings(when: .always))
        let log = EventLog()
        let report = await Engine(options: EngineOptions(jobs: 2)).run(graph, events: log)
        #expect(outcomes(report)["cleanup"] == .succeeded)
        let spans = log.spans
        #expect(try #require(spans[1]).end < (try #require(spans[2])).start)
    }

    @Test func failureRunsOnlyWhenSomethingItNeedsFailed() async throws {
        var graph = ExecutionGraph()
        let fine = try graph.add("fine", action: succeed)
        let notify = try graph.add("notify", action: succeed, needs: [fine], settings: NodeSettings(when: .failure))
        try graph.add("after-notify", action: succeed, needs: [notify])
        try graph.add("cleanup", action: succeed, needs: [notify], settings: NodeSettings(when: .always))
        let broken = try graph.add("broken", action: fail)
        try graph.add("alert", action: succeed, needs: [broken], settings: NodeSettings(when: .failure))
        let report = await Engine().run(graph)
        #expect(
            outcomes(report) == [
                "fine": .succeeded,
                "notify": .bypassed("when: failure, and nothing it needs failed"),
                "after-notify": .bypassed("'notify' did not run"),
                "cleanup": .succeeded,
                "broken": .failed("broken"),
                "alert": .succeeded,
            ])
    }

    @Test func failureRunsWhenANeedWasSkippedBecauseOfAFailure() async throws {
        var graph = ExecutionGraph()
        let fetch = try graph.add("fetch", action: fail)
        let convert = try graph.add("convert", action: succeed, needs: [fetch])
        let other = try graph.add("other", action: succeed)
        try graph.add("alert", action: succeed, needs: [convert, other], settings: NodeSettings(when: .failure))
        let report = await Engine().run(graph)
        #expect(
            outcomes(report) == [
                "fetch": .failed("broken"), "convert": .skipped(because: "fetch"), "other": .succeeded,
                "alert": .succeeded,
            ])
    }

    @Test func cancellingTheRunStopsAlwaysNodesToo() async throws {
        var graph = ExecutionGraph()
        let started = Latch()
        let work = try graph.add(
            "work",
            action: ClosureAction { _ in
                started.signal()
                try await Task.sleep(for: .seconds(60))
                return EmptyResult()
            })
        try graph.add("cleanup", action: succeed, needs: [work], settings: NodeSettings(when: .always))
        let run = Task { await Engine().run(graph) }
        await started.wait()
        run.cancel()
        let report = await run.value
        #expect(outcomes(report) == ["work": .cancelled, "cleanup": .notStarted])
    }

    @Test func failFastStopsAlwaysNodesToo() async throws {
        var graph = ExecutionGraph()
        let build = try graph.add("build", action: fail)
        try graph.add("cleanup", action: succeed, needs: [build], settings: NodeSettings(when: .always))
        let report = await Engine(options: EngineOptions(failFast: true)).run(graph)
        #expect(outcomes(report) == ["build": .failed("broken"), "cleanup": .notStarted])
    }
}
