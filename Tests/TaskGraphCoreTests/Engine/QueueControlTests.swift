import Foundation
import Testing

@testable import TaskGraphCore

/// `priority` orders ready nodes; `exclusive` makes a node a barrier in its pool or run.
@Suite struct QueueControlTests {
    @Test func oneLaneStartsTenReadyNodesByPriority() async throws {
        var graph = ExecutionGraph()
        let priorities = [0, -8, 4, 8, 0, -4, 8, 4, -100, 100]
        for (index, priority) in priorities.enumerated() {
            try graph.add(
                "op\(index)", action: ClosureAction { _ in EmptyResult() }, settings: NodeSettings(priority: priority))
        }
        let log = EventLog()
        let report = await Engine(options: EngineOptions(jobs: 1)).run(graph, events: log)
        #expect(report.succeeded)
        // Highest first; equal priorities in the order given.
        #expect(log.startOrder == [9, 3, 6, 2, 7, 0, 4, 5, 1, 8])
    }

    @Test func priorityNeverOverridesDependencies() async throws {
        var graph = ExecutionGraph()
        let low = try graph.add(
            "low", action: ClosureAction { _ in EmptyResult() }, settings: NodeSettings(priority: -8))
        try graph.add(
            "urgent", action: ClosureAction { _ in EmptyResult() }, needs: [low], settings: NodeSettings(priority: 8))
        try graph.add("normal", action: ClosureAction { _ in EmptyResult() })
        let log = EventLog()
        let report = await Engine(options: EngineOptions(jobs: 1)).run(graph, events: log)
        #expect(report.succeeded)
        #expect(log.startOrder == [2, 0, 1])
    }

    @Test func aHighPriorityRootStartsBeforeLowerWorkUnderWay() async throws {
        // Within one priority, work under way goes first; a higher priority goes before it.
        var graph = ExecutionGraph()
        let first = try graph.add("first", action: ClosureAction { _ in EmptyResult() })
        try graph.add("next", action: ClosureAction { _ in EmptyResult() }, needs: [first])
        try graph.add("late", action: ClosureAction { _ in EmptyResult() })
        try graph.add("urgent", action: ClosureAction { _ in EmptyResult() }, settings: NodeSettings(priority: 4))
        let log = EventLog()
        _ = await Engine(options: EngineOptions(jobs: 1)).run(graph, events: log)
        #expect(log.startOrder == [3, 0, 1, 2])
    }

    /// Nine sleeping nodes on three lanes with a barrier among them, and a second pool busy
    /// beside. The first two and the last two wait until they run together (the run is
    /// concurrent around the barrier).
    private func barrierRun(scope: Exclusivity) async throws -> (log: EventLog, barrier: Int, pools: [String?]) {
        var graph = ExecutionGraph()
        var pools: [String?] = []
        let before = Rendezvous(count: 2)
        let after = Rendezvous(count: 2)
        for index in 0..<9 {
            let exclusive: Exclusivity = index == 4 ? scope : .shared
            let meeting = index < 2 ? before : index > 6 ? after : nil
            try graph.add(
                "op\(index)",
                action: ClosureAction { _ in
                    await meeting?.arrive()
                    try await Task.sleep(for: .milliseconds(30))
                    return EmptyResult()
                }, settings: NodeSettings(exclusive: exclusive))
            pools.append(nil)
        }
        for index in 0..<6 {
            try graph.add("net\(index)", action: sleeping(.milliseconds(30)), settings: NodeSettings(pool: "net"))
            pools.append("net")
        }
        let log = EventLog()
        let report = await Engine(options: EngineOptions(jobs: 3, pools: ["net": 2])).run(graph, events: log)
        #expect(report.succeeded)
        return (log, 4, pools)
    }

    @Test func aPoolBarrierRunsAloneInItsPoolWhileTheRestStaysConcurrent() async throws {
        let (log, barrier, pools) = try await barrierRun(scope: .pool)
        let spans = log.spans
        let barrierSpan = try #require(spans[barrier])
        for (node, span) in spans where node != barrier && pools[node] == nil {
            #expect(!span.overlaps(barrierSpan), "op\(node) overlaps the barrier")
        }
        #expect(log.peakRunning(of: [0, 1]) == 2 && log.peakRunning(of: [7, 8]) == 2, "concurrent before and after")
    }

    @Test func aRunBarrierRunsAloneInTheWholeRun() async throws {
        let (log, barrier, _) = try await barrierRun(scope: .run)
        let spans = log.spans
        let barrierSpan = try #require(spans[barrier])
        for (node, span) in spans where node != barrier {
            #expect(!span.overlaps(barrierSpan), "node \(node) overlaps the barrier")
        }
        #expect(log.peakRunning(of: [0, 1]) == 2 && log.peakRunning(of: [7, 8]) == 2, "concurrent before and after")
    }
}

/// Lets `count` actions wait until all of them are running (at most ten seconds: a guard
/// against a hang, not a timing assertion).
final class Rendezvous: Sendable {
    private let count: Int
    private let arrived = Counter()

    init(count: Int) {
        self.count = count
    }

    /// Waits until `count` actions have arrived.
    func arrive() async {
        arrived.increment()
        for _ in 0..<1000 {
            if arrived.value >= count { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
