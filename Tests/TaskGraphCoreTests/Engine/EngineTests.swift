import Foundation
import Testing

@testable import TaskGraphCore

@Suite struct EngineTests {
    @Test func runsDependenciesFirstAndPassesResultsByProtocol() async throws {
        var graph = ExecutionGraph()
        let hello = try graph.add("hello", action: ClosureAction { _ in BytesResult(Data("hello".utf8)) })
        let world = try graph.add("world", action: ClosureAction { _ in EmptyResult() })
        try graph.add(
            "shout",
            action: ClosureAction { context in
                let text = String(decoding: try await context.input((any BytesProvider).self).data, as: UTF8.self)
                return BytesResult(Data(text.uppercased().utf8))
            }, needs: [hello, world])
        let log = EventLog()
        let report = await Engine(options: EngineOptions(jobs: 1)).run(graph, events: log)
        #expect(report.succeeded)
        #expect(log.startOrder == [0, 1, 2])
        let shout = try #require(report.finalResults["shout"] as? BytesResult)
        #expect(String(decoding: shout.data, as: UTF8.self) == "HELLO")
    }

    @Test func jobsBoundConcurrencyAndPoolsBoundTheirOwn() async throws {
        let cpu = ConcurrencyGauge()
        let net = ConcurrencyGauge()
        var graph = ExecutionGraph()
        for index in 0..<12 {
            try graph.add("cpu\(index)", action: sleeping(.milliseconds(20), gauge: cpu))
            try graph.add(
                "net\(index)", action: sleeping(.milliseconds(20), gauge: net), settings: NodeSettings(pool: "net"))
        }
        let report = await Engine(options: EngineOptions(jobs: 2, pools: ["net": 5])).run(graph)
        #expect(report.succeeded)
        #expect(cpu.peak == 2)
        #expect(net.peak == 5)
    }

    @Test func failureSkipsDependentsButIndependentBranchesFinish() async throws {
        var graph = ExecutionGraph()
        let bad = try graph.add("bad", action: ClosureAction { _ in throw TestFailure(description: "boom") })
        let child = try graph.add("child", action: ClosureAction { _ in EmptyResult() }, needs: [bad])
        try graph.add("grandchild", action: ClosureAction { _ in EmptyResult() }, needs: [child])
        try graph.add("independent", action: sleeping(.milliseconds(50)))
        let report = await Engine(options: EngineOptions(jobs: 2)).run(graph)
        #expect(
            report.nodes.map(\.outcome) == [
                .failed("boom"), .skipped(because: "bad"), .skipped(because: "bad"), .succeeded,
            ])
        #expect(report.hasFailures)
    }

    @Test func failFastCancelsRunningWork() async throws {
        var graph = ExecutionGraph()
        let started = Latch()
        try graph.add(
            "slow",
            action: ClosureAction { _ in
                started.signal()
                try await Task.sleep(for: .seconds(900))
                return EmptyResult()
            })
        try graph.add(
            "bad",
            action: ClosureAction { _ in
                await started.wait()
                throw TestFailure(description: "boom")
            })
        let start = ContinuousClock.now
        let report = await Engine(options: EngineOptions(jobs: 2, failFast: true)).run(graph)
        // Cancelled, not slept out (a guard far from both, for a loaded machine).
        #expect(ContinuousClock.now - start < .seconds(600))
        #expect(report.nodes.map(\.outcome) == [.cancelled, .failed("boom")])
    }

    @Test func retriesWithBackoffUntilSuccess() async throws {
        let attempts = Counter()
        var graph = ExecutionGraph()
        try graph.add(
            "flaky",
            action: ClosureAction { context in
                attempts.increment()
                if context.attempt < 3 { throw TestFailure(description: "try again") }
                return EmptyResult()
            }, settings: NodeSettings(retries: 3))
        let log = EventLog()
        let options = EngineOptions(jobs: 1, retryBaseDelay: .milliseconds(10))
        let report = await Engine(options: options).run(graph, events: log)
        #expect(report.succeeded)
        #expect(report.nodes[0].attempts == 3)
        #expect(log.retries.map(\.attempt) == [1, 2])
    }

    @Test func nonRetryableErrorsAreNotRetried() async throws {
        var graph = ExecutionGraph()
        try graph.add(
            "gone",
            action: ClosureAction { _ in
                throw TestFailure(description: "HTTP 404", isRetryable: false)
            }, settings: NodeSettings(retries: 5))
        let report = await Engine().run(graph)
        #expect(report.nodes[0].outcome == .failed("HTTP 404"))
        #expect(report.nodes[0].attempts == 1)
    }

    @Test func timeoutCancelsTheAttempt() async throws {
        var graph = ExecutionGraph()
        try graph.add("stuck", action: sleeping(.seconds(900)), settings: NodeSettings(timeout: .milliseconds(100)))
        let start = ContinuousClock.now
        let report = await Engine().run(graph)
        #expect(ContinuousClock.now - start < .seconds(600))
        #expect(report.nodes[0].outcome == .timedOut(.milliseconds(100)))
        #expect(report.nodes[0].outcome.reason == "timed out after 100ms")
    }

    @Test func timeoutEndsANodeWhoseActionIgnoresCancellation() async throws {
        let started = Counter()
        let finished = Counter()
        var graph = ExecutionGraph()
        // Blocks its thread for 2 s in steps, never looking at cancellation.
        let stubborn = try graph.add(
            "stubborn",
            action: ClosureAction { context in
                try await context.resources.blockingIO.run {
                    started.increment()
                    for _ in 0..<20 { usleep(100_000) }
                    // Counted on the blocking thread: the cancelled task may throw when this returns.
                    finished.increment()
                }
                return BytesResult(Data("late".utf8))
            }, settings: NodeSettings(timeout: .milliseconds(100)))
        try graph.add("after", action: ClosureAction { _ in EmptyResult() }, needs: [stubborn])
        let report = await Engine().run(graph)
        #expect(report.nodes.map(\.outcome) == [.timedOut(.milliseconds(100)), .skipped(because: "stubborn")])
        #expect(report.nodes[0].outcome.reason == "timed out after 100ms")
        // (Not timed here: on a loaded machine the deadline is late too. It used to end
        // `succeeded`, with the late result.)
        // The run waited for the abandoned attempt's work to end, when it had begun (on a loaded
        // machine the deadline can pass before it does); its result was discarded.
        #expect(finished.value == started.value)
    }

    @Test func anAttemptThatSucceedsAfterItsDeadlineStillTimesOut() async throws {
        var graph = ExecutionGraph()
        // Ends 400 ms after its deadline, within the time it is given to end (the limit, 600 ms).
        try graph.add(
            "late",
            action: ClosureAction { context in
                try await context.resources.blockingIO.run { _ = usleep(1_000_000) }
                return BytesResult(Data("late".utf8))
            }, settings: NodeSettings(timeout: .milliseconds(600)))
        let report = await Engine().run(graph)
        #expect(report.nodes[0].outcome == .timedOut(.milliseconds(600)))
        #expect(report.finalResults["late"] == nil)
    }

    @Test func cancellingTheRunCancelsRunningAndNeverStartsTheRest() async throws {
        var graph = ExecutionGraph()
        let started = Latch()
        let first = try graph.add(
            "first",
            action: ClosureAction { _ in
                started.signal()
                try await Task.sleep(for: .seconds(900))
                return EmptyResult()
            })
        try graph.add("second", action: sleeping(.seconds(900)), needs: [first])
        let run = Task { await Engine(options: EngineOptions(jobs: 1)).run(graph) }
        await started.wait()
        let start = ContinuousClock.now
        run.cancel()
        let report = await run.value
        #expect(ContinuousClock.now - start < .seconds(600))
        #expect(report.wasCancelled)
        #expect(report.nodes.map(\.outcome) == [.cancelled, .notStarted])
    }

    @Test func readyNodesStartAsSoonAsTheirLastDependencyFinishes() async throws {
        // "slow" only finishes once "after-quick" has run (or after 30 s): if the engine waited
        // for "slow" before starting "after-quick", "slow" would end first.
        let afterQuickRan = CancellationFlag()
        var graph = ExecutionGraph()
        let quick = try graph.add("quick", action: sleeping(.milliseconds(10)))
        try graph.add(
            "slow",
            action: ClosureAction { _ in
                for _ in 0..<3000 where !afterQuickRan.isCancelled { try await Task.sleep(for: .milliseconds(10)) }
                return EmptyResult()
            })
        try graph.add(
            "after-quick",
            action: ClosureAction { _ in
                afterQuickRan.cancel()
                return EmptyResult()
            }, needs: [quick])
        let report = await Engine(options: EngineOptions(jobs: 2)).run(graph)
        let afterQuickEnd = try #require(report.nodes[2].endTime)
        let slowEnd = try #require(report.nodes[1].endTime)
        #expect(afterQuickEnd < slowEnd)
    }

    @Test func largeGraphsRunEveryNodeOnce() async throws {
        let count = 100_000
        let counter = Counter()
        var graph = ExecutionGraph()
        let action = ClosureAction { _ in
            counter.increment()
            return EmptyResult()
        }
        var previous: ExecutionGraph.NodeHandle?
        for index in 0..<count {
            previous = try graph.add("n\(index)", action: action, needs: previous.map { [$0] } ?? [])
        }
        let report = await Engine().run(graph)
        #expect(report.succeeded)
        #expect(counter.value == count)
    }

    @Test func emptyGraph() async {
        let report = await Engine().run(ExecutionGraph())
        #expect(report.nodes.isEmpty)
        #expect(report.succeeded)
    }
}
