import Foundation
import OperationTestSupport
import TaskGraphCore
import Testing

/// The reuse-or-run decisions of `RunCache`, driven by the engine against an in-memory store and
/// an in-process remote executor, as ninja tests its builder with a fake command runner: a miss
/// runs and records, a hit runs nothing, a changed parameter runs its node, an unchanged result
/// stops the change there (early cut-off), a group is never recorded, a closure always runs, and
/// a remote node runs through the executor and is reused like any other.
struct RunCacheTests {
    /// A cacheable action of the test's own: its result is `word` transformed, after its inputs'
    /// bytes; it counts its runs.
    struct Word: CacheableAction {
        let word: String
        let uppercased: Bool
        let runs: Runs

        var cacheVersion: Int { 1 }

        func addParameters(to key: inout KeyComponents) {
            key.add("word", word)
            key.add("uppercased", String(uppercased))
        }

        func run(in context: TaskContext) async throws -> any OperationResult {
            runs.count(context.id)
            var data = Data()
            for input in context.inputs((any BytesProvider).self) { data += try await input.value.data }
            return BytesResult(data + Data((uppercased ? word.uppercased() : word).utf8))
        }
    }

    /// Which nodes ran, in order.
    final class Runs: Sendable {
        private let ids = Locked<[String]>([])
        func count(_ id: String) { ids.withLock { $0.append(id) } }
        func taken() -> [String] {
            ids.withLock { ids in
                defer { ids = [] }
                return ids
            }
        }
    }

    private let runs = Runs()
    private let store = MemoryResultStore()

    /// `source` → `shout` → `keep`, with the words given.
    private func chain(source: String = "a", sourceUppercased: Bool = false) throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        let first = try graph.add("source", action: Word(word: source, uppercased: sourceUppercased, runs: runs))
        let second = try graph.add("shout", action: Word(word: "b", uppercased: true, runs: runs), needs: [first])
        try graph.add("keep", action: Word(word: "c", uppercased: false, runs: runs), needs: [second])
        return graph
    }

    private func run(_ graph: ExecutionGraph, remote: (any RemoteExecutor)? = nil) async -> [NodeOutcome.Kind] {
        let engine = Engine(options: EngineOptions(remote: remote))
        return await engine.run(graph, cache: RunCache(store: store)).nodes.map(\.outcome.kind)
    }

    @Test func aMissRunsAndRecordsAndAHitRunsNothing() async throws {
        #expect(await run(try chain()) == [.succeeded, .succeeded, .succeeded])
        #expect(runs.taken() == ["source", "shout", "keep"])
        #expect(store.recordWrites == 3)

        #expect(await run(try chain()) == [.cached, .cached, .cached])
        #expect(runs.taken() == [])
        #expect(store.recordWrites == 3)
    }

    @Test func aChangedParameterRunsItsNodeAndWhatNeedsIt() async throws {
        _ = await run(try chain(source: "a"))
        _ = runs.taken()
        #expect(await run(try chain(source: "x")) == [.succeeded, .succeeded, .succeeded])
        #expect(runs.taken() == ["source", "shout", "keep"])
    }

    @Test func anUnchangedResultStopsTheChangeThere() async throws {
        _ = await run(try chain(source: "A"))
        _ = runs.taken()
        // Another parameter, the same result: what needs it is reused (early cut-off).
        #expect(await run(try chain(source: "a", sourceUppercased: true)) == [.succeeded, .cached, .cached])
        #expect(runs.taken() == ["source"])
    }

    @Test func aGroupIsNeverRecordedAndAClosureAlwaysRuns() async throws {
        func graph() throws -> ExecutionGraph {
            var graph = ExecutionGraph()
            let word = try graph.add("word", action: Word(word: "a", uppercased: false, runs: runs))
            let closure = try graph.add(
                "closure", action: ClosureAction { _ in BytesResult(Data("c".utf8)) }, needs: [word])
            try graph.add("all", action: Group(), needs: [word, closure])
            return graph
        }
        #expect(await run(try graph()) == [.succeeded, .succeeded, .succeeded])
        #expect(store.recordWrites == 1)
        // The group needs a node that ran: it ends as it would without a store.
        #expect(await run(try graph()) == [.cached, .succeeded, .succeeded])
        #expect(store.recordWrites == 1)
    }

    /// Runs each job in this process with a `RemoteWorker` over the same store, as a cluster's
    /// worker would on another machine.
    struct InProcessExecutor: RemoteExecutor {
        let worker: RemoteWorker
        let jobs: Runs

        func accepts(_ settings: NodeSettings) -> Bool { settings.cluster.executor != "local" }

        func run(_ job: RemoteJob, settings: NodeSettings, context: TaskContext) async throws -> RemoteCompletion {
            jobs.count(job.setup.id)
            let completion = await worker.run(job, resources: context.resources)
            if let failure = completion.failure {
                throw OperationError.processFailed(program: job.setup.id, status: failure.message, stderrTail: "")
            }
            return completion
        }
    }

    @Test func aRemoteNodeRunsThroughTheExecutorAndIsReusedLikeAnyOther() async throws {
        let directory = try makeScratchDirectory().path
        try Data("photo".utf8).write(to: URL(fileURLWithPath: directory + "/photo.bin"))
        func graph() throws -> ExecutionGraph {
            var graph = ExecutionGraph()
            let load = try graph.add("load", action: Load(path: "photo.bin", directory: directory))
            try graph.add("save", action: Save(path: "copy.bin", outputDirectory: directory + "/out"), needs: [load])
            return graph
        }
        let jobs = Runs()
        let executor = InProcessExecutor(worker: RemoteWorker(registry: .core, store: store), jobs: jobs)
        #expect(await run(try graph(), remote: executor) == [.succeeded, .succeeded])
        #expect(Set(jobs.taken()) == ["load", "save"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/out/copy.bin")) == Data("photo".utf8))

        #expect(await run(try graph(), remote: executor) == [.cached, .cached])
        #expect(jobs.taken() == [])
    }
}
