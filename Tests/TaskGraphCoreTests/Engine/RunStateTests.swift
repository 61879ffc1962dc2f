import Testing

@testable import TaskGraphCore

@Suite struct RunStateTests {
    /// Ten roots in pool 1 ("io"), each needed by one node in pool 0; one worker per pool.
    private func sourcesAndConsumers() throws -> RunState {
        var graph = ExecutionGraph()
        let noop = ClosureAction { _ in EmptyResult() }
        for item in 0..<10 {
            let source = try graph.add("source\(item)", action: noop, settings: NodeSettings(pool: "io"))
            try graph.add("consumer\(item)", action: noop, needs: [source])
        }
        let plan = RunPlan(graph)
        let poolOfNode: [Int32] = (0..<plan.count).map { $0 % 2 == 0 ? 1 : 0 }
        return RunState(plan: plan, poolOfNode: poolOfNode, poolCount: 2, laneCount: 2, clock: RunClock())
    }

    private func node(_ take: RunState.Take) -> Int? {
        if case .assigned(let assignment) = take { return assignment.node }
        return nil
    }

    private func succeed(_ node: Int, in state: inout RunState) {
        var wakeUps: RunState.WakeUps = []
        state.histories.record(NodeHistory(outcome: .succeeded, start: 0, end: 0, attempts: 1), for: node)
        _ = state.finish(
            node, outcome: .succeeded, result: EmptyResult(), now: 0, failFast: false, tracksReadiness: false,
            wakeUps: &wakeUps)
    }

    @Test func rootsWaitWhileEnoughConsumersAreReady() throws {
        var state = try sourcesAndConsumers()
        #expect(state.rootLimit == 4)
        for expected in [0, 2, 4, 6] {
            let source = try #require(node(state.take(from: 1, now: 0)))
            #expect(source == expected)
            succeed(source, in: &state)
        }
        // Four consumers wait for the CPU pool: no fifth source starts.
        #expect(node(state.take(from: 1, now: 0)) == nil)
        #expect(node(state.take(from: 0, now: 0)) == 1)
        #expect(node(state.take(from: 1, now: 0)) == 8)
    }

    @Test func theLastNodeStopsTheRun() throws {
        var state = try sourcesAndConsumers()
        while let next = node(state.take(from: 1, now: 0)) ?? node(state.take(from: 0, now: 0)) {
            succeed(next, in: &state)
        }
        #expect(state.stopReason == .completed)
        #expect(state.report(wasCancelled: false).nodes.allSatisfy { $0.outcome == .succeeded })
    }
}
