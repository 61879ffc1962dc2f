import Foundation
import Testing

@testable import TaskGraphCore

/// `RunHandle` adds nodes to a run while it runs and cancels single nodes.
@Suite struct RunHandleTests {
    /// Records the ids of each node's inputs, by node id.
    final class Inputs: Sendable {
        private let seen = Locked<[String: [String]]>([:])

        func action(_ id: String) -> ClosureAction {
            ClosureAction { context in
                self.seen.withLock { $0[id] = context.inputs.map(\.id) }
                return EmptyResult()
            }
        }

        subscript(id: String) -> [String]? { seen.withLock { $0[id] } }
    }

    @Test func anActionAddsNodesThatNeedItAndEachOther() async throws {
        let handle = RunHandle()
        let inputs = Inputs()
        var graph = ExecutionGraph()
        let index = try graph.add(
            "index",
            action: ClosureAction { _ in
                try handle.add([
                    RunHandle.Node("download[a]", action: inputs.action("download[a]"), needs: ["index"]),
                    RunHandle.Node("download[b]", action: inputs.action("download[b]"), needs: ["index"]),
                    RunHandle.Node("tilt[a]", action: inputs.action("tilt[a]"), needs: ["download[a]"]),
                ])
                return EmptyResult()
            })
        try graph.add("other", action: inputs.action("other"), needs: [index])
        let log = EventLog()
        let report = await Engine(options: EngineOptions(jobs: 2)).run(graph, events: log, handle: handle)
        #expect(report.succeeded)
        #expect(report.nodes.map(\.id) == ["index", "other", "download[a]", "download[b]", "tilt[a]"])
        #expect(report.nodes.map(\.outcome) == Array(repeating: .succeeded, count: 5))
        #expect(inputs["download[a]"] == ["index"])
        #expect(inputs["tilt[a]"] == ["download[a]"])
        #expect(log.added == [2: ["download[a]", "download[b]", "tilt[a]"]])
        #expect(Set(log.startOrder) == [0, 1, 2, 3, 4])
    }

    @Test func addingIsRefusedForTakenIdsUnknownNeedsAndARunThatEnded() async throws {
        let handle = RunHandle()
        let refusals = Locked<[RunHandleError]>([])
        var graph = ExecutionGraph()
        try graph.add(
            "index",
            action: ClosureAction { _ in
                for node in [
                    RunHandle.Node("index", action: ClosureAction { _ in EmptyResult() }),
                    RunHandle.Node("late", action: ClosureAction { _ in EmptyResult() }, needs: ["nowhere"]),
                ] {
                    do throws(RunHandleError) { try handle.add([node]) } catch {
                        refusals.withLock { $0.append(error) }
                    }
                }
                return EmptyResult()
            })
        let report = await Engine().run(graph, handle: handle)
        #expect(report.nodes.map(\.id) == ["index"])
        #expect(refusals.withLock { $0 } == [.duplicateID("index"), .unknownDependency(of: "late")])
        #expect(throws: RunHandleError.runEnded) {
            try handle.add("after", action: ClosureAction { _ in EmptyResult() })
        }
        #expect(RunHandleError.duplicateID("index").description == "the run already has a node 'index'")
        #expect(!handle.cancel("index"), "no run is under way")
    }

    @Test func aNodeAddedAfterWhatItNeedsFailedIsSkipped() async throws {
        let handle = RunHandle()
        let failed = Latch()
        var graph = ExecutionGraph()
        try graph.add("broken", action: ClosureAction { _ in throw TestFailure(description: "no") })
        try graph.add(
            "adder",
            action: ClosureAction { _ in
                await failed.wait()
                try handle.add("after", action: ClosureAction { _ in EmptyResult() }, needs: ["broken"])
                return EmptyResult()
            })
        let log = EventLog(onFinished: { node, _ in if node == 0 { failed.signal() } })
        let report = await Engine(options: EngineOptions(jobs: 2)).run(graph, events: log, handle: handle)
        #expect(report.nodes.map(\.id) == ["broken", "adder", "after"])
        #expect(report.nodes.map(\.outcome) == [.failed("no"), .succeeded, .skipped(because: "broken")])
    }

    @Test func cancellingANodeThatHasNotStartedEndsItAndWhatNeedsIt() async throws {
        let handle = RunHandle()
        let started = Latch()
        let release = Latch()
        var graph = ExecutionGraph()
        let gate = try graph.add(
            "gate",
            action: ClosureAction { _ in
                started.signal()
                await release.wait()
                return EmptyResult()
            })
        let first = try graph.add("first", action: ClosureAction { _ in EmptyResult() }, needs: [gate])
        try graph.add("second", action: ClosureAction { _ in EmptyResult() }, needs: [first])
        try graph.add("third", action: ClosureAction { _ in EmptyResult() }, needs: [gate])
        let log = EventLog()
        let run = Task { await Engine(options: EngineOptions(jobs: 1)).run(graph, events: log, handle: handle) }
        await started.wait()
        #expect(handle.cancel("first"))
        #expect(!handle.cancel("nowhere"))
        release.signal()
        let report = await run.value
        #expect(report.nodes.map(\.outcome) == [.succeeded, .cancelled, .cancelled, .succeeded])
        #expect(Set(log.startOrder) == [0, 3], "cancelled nodes never start")
    }

    @Test func cancellingARunningNodeCancelsItAloneAndEndsWhatNeedsIt() async throws {
        let handle = RunHandle()
        let started = Latch()
        let sawCancellation = Latch()
        var graph = ExecutionGraph()
        let slow = try graph.add(
            "slow",
            action: ClosureAction { _ in
                started.signal()
                // Ends only when cancelled: a hang guard, not a timing assertion.
                try await Task.sleep(for: .seconds(600))
                return EmptyResult()
            })
        try graph.add("after", action: ClosureAction { _ in EmptyResult() }, needs: [slow])
        try graph.add(
            "independent",
            action: ClosureAction { _ in
                await sawCancellation.wait()
                return EmptyResult()
            })
        let log = EventLog(onFinished: { node, _ in if node == 0 { sawCancellation.signal() } })
        let run = Task { await Engine(options: EngineOptions(jobs: 2)).run(graph, events: log, handle: handle) }
        await started.wait()
        #expect(handle.cancel("slow"))
        let report = await run.value
        #expect(!report.wasCancelled, "only the node was cancelled, not the run")
        #expect(report.nodes.map(\.outcome) == [.cancelled, .cancelled, .succeeded])
    }
}
