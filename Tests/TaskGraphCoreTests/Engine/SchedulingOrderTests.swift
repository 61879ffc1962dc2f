import Foundation
import Synchronization
import Testing

@testable import TaskGraphCore

/// The engine finishes work under way before it reads new data, so memory follows the work in
/// flight, not the size of the graph.
@Suite struct SchedulingOrderTests {
    /// `count` chains load[i] -> filter[i] -> save[i]; loads may run in `loadPool`.
    private func chains(_ count: Int, loadPool: String? = nil, tracker: InFlightTracker) throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        for item in 0..<count {
            let load = try graph.add(
                "load[\(item)]",
                action: ClosureAction { _ in
                    tracker.started(item)
                    return EmptyResult()
                }, settings: NodeSettings(pool: loadPool))
            let filter = try graph.add(
                "filter[\(item)]",
                action: ClosureAction { _ in
                    try await Task.sleep(for: .milliseconds(1))
                    return EmptyResult()
                }, needs: [load])
            try graph.add(
                "save[\(item)]",
                action: ClosureAction { _ in
                    tracker.finished(item)
                    return EmptyResult()
                }, needs: [filter])
        }
        return graph
    }

    @Test func oneWorkerFinishesEachChainBeforeStartingTheNext() async throws {
        let tracker = InFlightTracker()
        let graph = try chains(5, tracker: tracker)
        let log = EventLog()
        let report = await Engine(options: EngineOptions(jobs: 1)).run(graph, events: log)
        #expect(report.succeeded)
        #expect(log.startOrder == Array(0..<15))
        #expect(tracker.peak == 1)
    }

    @Test func twoHundredItemsOnTwoWorkersKeepAboutTwoInFlight() async throws {
        let tracker = InFlightTracker()
        let report = await Engine(options: EngineOptions(jobs: 2)).run(try chains(200, tracker: tracker))
        #expect(report.succeeded)
        #expect(tracker.peak <= 3)
    }

    @Test func aFastSourcePoolWaitsForItsConsumers() async throws {
        // Eight load workers could read all 200 items at once; the engine stops starting loads
        // while 2 × (8 + 2) = 20 nodes that continue work wait for the two CPU workers.
        let tracker = InFlightTracker()
        let graph = try chains(200, loadPool: "io", tracker: tracker)
        let report = await Engine(options: EngineOptions(jobs: 2, pools: ["io": 8])).run(graph)
        #expect(report.succeeded)
        #expect(tracker.peak <= 8 + 20 + 2)
    }

    @Test func aFanInOverEveryRootStillRuns() async throws {
        // The sink needs every root: waiting roots must not deadlock the run.
        var graph = ExecutionGraph()
        var roots: [ExecutionGraph.NodeHandle] = []
        for item in 0..<100 {
            let root = try graph.add(
                "root[\(item)]", action: ClosureAction { _ in EmptyResult() }, settings: NodeSettings(pool: "io"))
            try graph.add("side[\(item)]", action: ClosureAction { _ in EmptyResult() }, needs: [root])
            roots.append(root)
        }
        try graph.add("sink", action: ClosureAction { _ in EmptyResult() }, needs: roots)
        let report = await Engine(options: EngineOptions(jobs: 1, pools: ["io": 4])).run(graph)
        #expect(report.succeeded)
    }
}

/// Counts items whose first node started and whose last node has not finished.
final class InFlightTracker: Sendable {
    private let state = Locked((current: 0, peak: 0))

    func started(_ item: Int) {
        state.withLock {
            $0.current += 1
            $0.peak = max($0.peak, $0.current)
        }
    }
    func finished(_ item: Int) { state.withLock { $0.current -= 1 } }
    /// The most items in flight at once.
    var peak: Int { state.withLock { $0.peak } }
}
