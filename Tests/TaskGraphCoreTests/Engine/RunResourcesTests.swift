import Foundation
import Testing

@testable import TaskGraphCore

/// The engine gives every run its own `RunResources` and ends them with the run.
@Suite struct RunResourcesTests {
    /// What the actions of a run saw: their context's resources and the task-local ones.
    private final class Sightings: Sendable {
        private let seen = Locked<[(context: RunResources, current: RunResources?)]>([])

        func record(_ context: TaskContext) {
            seen.withLock { $0.append((context.resources, RunResources.current)) }
        }

        var all: [(context: RunResources, current: RunResources?)] { seen.withLock { $0 } }
    }

    /// Two independent nodes that record what they see and do blocking work through `BlockingIO`.
    private func graph(recordingIn sightings: Sightings) throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        for id in ["a", "b"] {
            try graph.add(
                id,
                action: ClosureAction { context in
                    sightings.record(context)
                    return BytesResult(try await BlockingIO.run { Data(id.utf8) })
                })
        }
        return graph
    }

    @Test func eachRunHasItsOwnResourcesAndTheirThreadsEndWithIt() async throws {
        var runs: [RunResources] = []
        for _ in 0..<2 {
            let sightings = Sightings()
            let report = await Engine().run(try graph(recordingIn: sightings))
            #expect(!report.hasFailures)
            let seen = sightings.all
            #expect(seen.count == 2)
            let resources = try #require(seen.first?.context)
            #expect(seen.allSatisfy { $0.context === resources && $0.current === resources })
            #expect(resources.blockingIO.threadCount == 0)
            runs.append(resources)
        }
        #expect(runs[0] !== runs[1])
        #expect(RunResources.current == nil)
    }

    @Test func aCallersResourcesServeTheRunAndStayUntilTheCallerShutsThemDown() async throws {
        let resources = RunResources(blockingThreads: 1)
        let sightings = Sightings()
        let report = await Engine().run(try graph(recordingIn: sightings), resources: resources)
        #expect(!report.hasFailures)
        #expect(sightings.all.allSatisfy { $0.context === resources && $0.current === resources })
        #expect(resources.blockingIO.threadCount == 1)
        await resources.shutDown()
        #expect(resources.blockingIO.threadCount == 0)
    }

    /// Blocking work and working-memory reservations below an action find the run's threads and
    /// budget through the task-locals `withCurrent` binds beside `RunResources.current`.
    @Test func withCurrentMakesTheRunsThreadsAndBudgetCurrent() async {
        let resources = RunResources(blockingThreads: 1)
        await resources.withCurrent {
            #expect(RunResources.current === resources)
            #expect(BlockingThreadPool.current === resources.blockingIO)
            #expect(WorkingMemoryBudget.current === resources.workingMemory)
        }
        #expect(BlockingThreadPool.current == nil && WorkingMemoryBudget.current == nil)
        await resources.shutDown()
    }
}
