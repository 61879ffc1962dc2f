import Foundation
import OperationTestSupport
import Synchronization
import Testing

@testable import TaskGraphCore

/// Every path of the reuse-or-run decision `RunCache` owns (`prepare` before a node runs,
/// `finished` after), driven by the engine against an in-memory store, a store that damages what
/// it holds, and an in-process remote executor; each node's decision, as `--explain` prints it,
/// is asserted exactly: a miss, a hit, a restored output file, a damaged blob, a constant group,
/// early cut-off, a result left out of the store and recomputed, a remote node, a fused chain,
/// and a result whose digest fails.
struct ReuseOrRunTests {
    private let runs = RunCacheTests.Runs()
    /// A storage rule that keeps every result (`StoragePolicy`, zero costs).
    private static let keepsEverything = StoragePolicy(secondsPerByte: 0, secondsPerBlob: 0)
    private let store = MemoryResultStore()
    private let directory: String

    init() throws {
        directory = try makeScratchDirectory().path
        try Data("photo".utf8).write(to: URL(fileURLWithPath: directory + "/photo.bin"))
    }

    /// Runs `graph` against `store` with a new `RunCache` that remembers the components of
    /// `previous` (the last run's, for explanations); returns the report and the cache.
    /// Every result is kept unless a test says otherwise: the measured rule would leave out or
    /// keep these tiny results depending on how loaded the machine is.
    private func run(
        _ graph: ExecutionGraph, after previous: RunCache? = nil, store: (any ResultStore)? = nil,
        policy: StoragePolicy = Self.keepsEverything, remote: (any RemoteExecutor)? = nil, events: Warnings? = nil
    ) async -> (outcomes: [NodeOutcome.Kind], cache: RunCache) {
        let remembered = previous?.components ?? [:]
        let cache = RunCache(
            store: store ?? self.store, previousComponents: { remembered[$0] }, displayDirectory: directory,
            storagePolicy: policy)
        let report = await Engine(options: EngineOptions(remote: remote)).run(graph, events: events, cache: cache)
        return (report.nodes.map(\.outcome.kind), cache)
    }

    /// `source` → `shout` → `keep`.
    private func chain(source: String = "a", note: String = "", keep: String = "c") throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        let first = try graph.add("source", action: Append(word: source, note: note, runs: runs))
        let second = try graph.add("shout", action: Append(word: "B", runs: runs), needs: [first])
        try graph.add("keep", action: Append(word: keep, runs: runs), needs: [second])
        return graph
    }

    /// `load` (photo.bin) → `save` (out/copy.bin), with `settings` for both.
    private func copy(_ settings: NodeSettings = NodeSettings()) throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        let load = try graph.add("load", action: Load(path: "photo.bin", directory: directory), settings: settings)
        try graph.add(
            "save", action: Save(path: "copy.bin", outputDirectory: directory + "/out"), needs: [load],
            settings: settings)
        return graph
    }

    @Test func aMissIsNewAndAHitIsUnchanged() async throws {
        let first = await run(try chain())
        #expect(first.outcomes == [.succeeded, .succeeded, .succeeded])
        #expect(first.cache.decisions.mapValues(\.fullExplanation) == ["source": "new", "shout": "new", "keep": "new"])
        #expect(runs.taken() == ["source", "shout", "keep"])

        let second = await run(try chain(), after: first.cache)
        #expect(second.outcomes == [.cached, .cached, .cached])
        #expect(Set(second.cache.decisions.values) == [CacheDecision(.hit, .unchanged)])
        #expect(runs.taken() == [])
    }

    @Test func aChangeIsExplainedAndWhatNeedsItNamesItsRootCause() async throws {
        let first = await run(try chain(source: "a"))
        _ = runs.taken()
        let second = await run(try chain(source: "x"), after: first.cache)
        #expect(second.outcomes == [.succeeded, .succeeded, .succeeded])
        #expect(
            second.cache.decisions.mapValues(\.fullExplanation) == [
                "source": "parameter changed: word",
                "shout": "input changed: source <- parameter changed: word in source",
                "keep": "input changed: shout <- parameter changed: word in source",
            ])
    }

    @Test func anUnchangedResultStopsTheChangeThere() async throws {
        let first = await run(try chain(note: "first"))
        _ = runs.taken()
        let second = await run(try chain(note: "second"), after: first.cache)
        #expect(second.outcomes == [.succeeded, .cached, .cached])
        #expect(
            second.cache.decisions.mapValues(\.fullExplanation) == [
                "source": "parameter changed: note", "shout": "unchanged", "keep": "unchanged",
            ])
        #expect(runs.taken() == ["source"])
    }

    @Test func aMissingOutputFileIsRestoredFromTheStore() async throws {
        let first = await run(try copy())
        #expect(first.outcomes == [.succeeded, .succeeded])
        try FileManager.default.removeItem(atPath: directory + "/out/copy.bin")

        let second = await run(try copy(), after: first.cache)
        #expect(second.outcomes == [.cached, .cached])
        #expect(
            second.cache.decisions == [
                "load": CacheDecision(.hit, .unchanged),
                "save": CacheDecision(.hit, .outputRestored, detail: "out/copy.bin (restored)"),
            ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/out/copy.bin")) == Data("photo".utf8))
    }

    @Test func aDamagedOutputBlobRunsTheNodeAgain() async throws {
        let damaging = DamagingStore()
        let first = await run(try copy(), store: damaging)
        try FileManager.default.removeItem(atPath: directory + "/out/copy.bin")
        damaging.damagedFiles.withLock { $0 = true }

        let second = await run(try copy(), after: first.cache, store: damaging)
        #expect(second.outcomes == [.cached, .succeeded])
        #expect(second.cache.decisions["save"] == CacheDecision(.miss, .corrupt, detail: "damaged blob"))
        #expect(second.cache.decisions["save"]?.explanation == "corrupt cache entry: damaged blob")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/out/copy.bin")) == Data("photo".utf8))
    }

    @Test func aDamagedInputResultIsRecomputedForTheNodeThatNeedsIt() async throws {
        let damaging = DamagingStore()
        let first = await run(try chain(), store: damaging)
        _ = runs.taken()
        damaging.damagedResults.withLock { $0 = true }
        let warnings = Warnings()

        let second = await run(try chain(keep: "d"), after: first.cache, store: damaging, events: warnings)
        #expect(second.outcomes == [.cached, .cached, .succeeded])
        #expect(warnings.all == ["damaged blob, recomputed"])
        #expect(runs.taken() == ["shout", "keep"])
        #expect(second.cache.decisions["keep"] == CacheDecision(.miss, .parameterChanged, detail: "word"))
    }

    @Test func aConstantGroupIsReusedWhenEverythingItNeedsIs() async throws {
        func graph(source: String) throws -> ExecutionGraph {
            var graph = ExecutionGraph()
            let first = try graph.add("source", action: Append(word: source, runs: runs))
            let second = try graph.add("other", action: Append(word: "o", runs: runs))
            try graph.add("all", action: Group(), needs: [first, second])
            return graph
        }
        let first = await run(try graph(source: "a"))
        #expect(first.outcomes == [.succeeded, .succeeded, .succeeded])
        #expect(first.cache.decisions["all"]?.fullExplanation == "input changed: source <- new in source")

        let second = await run(try graph(source: "a"), after: first.cache)
        #expect(second.outcomes == [.cached, .cached, .cached])
        #expect(second.cache.decisions["all"] == CacheDecision(.hit, .unchanged))

        let third = await run(try graph(source: "x"), after: second.cache)
        #expect(third.outcomes == [.succeeded, .cached, .succeeded])
        #expect(
            third.cache.decisions["all"]?.fullExplanation
                == "input changed: source <- parameter changed: word in source")
    }

    @Test func aResultLeftOutOfTheStoreIsRecomputedWhenANodeThatRunsNeedsIt() async throws {
        // Storing 100,000 bytes costs a day by this rule: recomputing costs less, however
        // loaded the machine.
        let leavesOut = StoragePolicy(secondsPerByte: 1, secondsPerBlob: 1)
        let source = String(repeating: "s", count: 100_000)
        let first = await run(try chain(source: source), policy: leavesOut)
        _ = runs.taken()
        var reasons: [String: String] = [:]
        for (id, components) in first.cache.components {
            let record = try #require(await store.record(for: components.key))
            reasons[id] = (try? await store.loadResult(record.result) as? UnstoredResult)?.reason
        }
        // A final result is always stored.
        #expect(reasons.keys.sorted() == ["shout", "source"])

        let second = await run(try chain(source: source, keep: "d"), after: first.cache, policy: leavesOut)
        #expect(second.outcomes == [.cached, .cached, .succeeded])
        #expect(runs.taken() == ["source", "shout", "keep"])
        #expect(
            second.cache.decisions == [
                "source": CacheDecision(.miss, .recomputed, detail: try #require(reasons["source"])),
                "shout": CacheDecision(.miss, .recomputed, detail: try #require(reasons["shout"])),
                "keep": CacheDecision(.miss, .parameterChanged, detail: "word"),
            ])
    }

    @Test func aRemoteNodeIsDecidedLikeALocalOne() async throws {
        let jobs = RunCacheTests.Runs()
        let executor = RunCacheTests.InProcessExecutor(worker: RemoteWorker(registry: .core, store: store), jobs: jobs)
        let first = await run(try copy(), remote: executor)
        #expect(first.outcomes == [.succeeded, .succeeded])
        #expect(first.cache.decisions.mapValues(\.fullExplanation) == ["load": "new", "save": "new"])
        #expect(Set(jobs.taken()) == ["load", "save"])

        let second = await run(try copy(), after: first.cache, remote: executor)
        #expect(second.outcomes == [.cached, .cached])
        #expect(Set(second.cache.decisions.values) == [CacheDecision(.hit, .unchanged)])
        #expect(jobs.taken() == [])
    }

    @Test func aRunWithoutACacheRunsEveryNodeHereWhateverItsRemoteExecutor() async throws {
        let jobs = RunCacheTests.Runs()
        let executor = RunCacheTests.InProcessExecutor(worker: RemoteWorker(registry: .core, store: store), jobs: jobs)
        let report = await Engine(options: EngineOptions(remote: executor)).run(try copy())
        #expect(report.nodes.map(\.outcome.kind) == [.succeeded, .succeeded])
        #expect(jobs.taken() == [])
    }

    @Test func aFusedChainsIntermediateIsReusedOnlyInsideAChain() async throws {
        let jobs = RunCacheTests.Runs()
        let executor = RunCacheTests.InProcessExecutor(worker: RemoteWorker(registry: .core, store: store), jobs: jobs)
        let fused = NodeSettings(cluster: ClusterSettings(fuse: true))
        let first = await run(try copy(fused), remote: executor)
        #expect(first.outcomes == [.succeeded, .succeeded])
        // One job for the chain, named after its head.
        #expect(jobs.taken() == ["load"])

        let second = await run(try copy(fused), after: first.cache, remote: executor)
        #expect(second.outcomes == [.cached, .cached])
        #expect(Set(second.cache.decisions.values) == [CacheDecision(.hit, .unchanged)])
        #expect(jobs.taken() == [])

        // Unfused, the save needs the load's result itself, which was not stored.
        let third = await run(try copy(), after: second.cache, remote: executor)
        #expect(third.outcomes == [.succeeded, .cached])
        #expect(
            third.cache.decisions["load"]
                == CacheDecision(
                    .miss, .new, detail: "its result was not stored (a fused chain's intermediate)"))
        #expect(jobs.taken() == ["load"])
    }

    @Test func aResultWithoutADigestIsReportedAndWhatNeedsItIsNotCached() async throws {
        var graph = ExecutionGraph()
        let odd = try graph.add("odd", action: ClosureAction { _ in Undigestible() })
        try graph.add("after", action: Append(word: "a", runs: runs), needs: [odd])
        let warnings = Warnings()
        let result = await run(graph, events: warnings)
        #expect(result.outcomes == [.succeeded, .succeeded])
        #expect(warnings.all == ["no digest of the result of odd (what needs it is not cached): damaged blob"])
        #expect(result.cache.decisions["after"] == CacheDecision(.miss, .notCacheable))
    }

    @Test func aNodeAddedWhileTheRunIsUnderWayIsDecidedLikeAnyOther() async throws {
        /// `source`, and `adder` (not cacheable: it always runs), which adds `added` needing it.
        func graph(_ handle: RunHandle) throws -> ExecutionGraph {
            var graph = ExecutionGraph()
            let source = try graph.add("source", action: Append(word: "a", runs: runs))
            let added = Append(word: "b", runs: runs)
            try graph.add(
                "adder",
                action: ClosureAction { _ in
                    try handle.add([RunHandle.Node("added", action: added, needs: ["adder"])])
                    return EmptyResult()
                }, needs: [source])
            return graph
        }
        let first = RunCache(store: store, storagePolicy: Self.keepsEverything)
        let handle = RunHandle()
        let cold = await Engine().run(try graph(handle), cache: first, handle: handle)
        #expect(cold.nodes.map(\.outcome.kind) == [.succeeded, .succeeded, .succeeded])
        #expect(first.decisions["added"] == CacheDecision(.miss, .new))

        let second = RunCache(store: store, storagePolicy: Self.keepsEverything)
        let again = RunHandle()
        let warm = await Engine().run(try graph(again), cache: second, handle: again)
        #expect(warm.nodes.map(\.outcome.kind) == [.cached, .succeeded, .cached])
        #expect(second.decisions["added"] == CacheDecision(.hit, .unchanged))
        #expect(runs.taken() == ["source", "added"])
    }

    @Test func theEngineAsksBeforeAndTellsAfter() async throws {
        var graph = ExecutionGraph()
        try graph.add("one", action: Append(word: "a", runs: runs))
        let resources = RunResources()
        let context = { TaskContext(id: "one", resources: resources) }
        let first = RunCache(store: store, storagePolicy: Self.keepsEverything)
        first.begin(CacheGraph(graph))
        guard
            case .run(let key?, let decision) = await first.prepare(
                0, resources: resources, fusedIntermediate: false, context: context)
        else {
            Issue.record("not a run with a key")
            return
        }
        #expect(decision == CacheDecision(.miss, .new))
        let result = SizedBytes(data: Data("a".utf8))
        #expect(await first.finished(0, key: key, result: result, seconds: 0.1, cpuSeconds: nil) == [])

        let second = RunCache(store: store, storagePolicy: Self.keepsEverything)
        second.begin(CacheGraph(graph))
        guard
            case .reuse(let reused, let hit, fusedIntermediate: false) = await second.prepare(
                0, resources: resources, fusedIntermediate: false, context: context)
        else {
            Issue.record("not reused")
            return
        }
        #expect(hit == CacheDecision(.hit, .unchanged))
        #expect(try await reused.digest == result.digest)
        await resources.shutDown()
    }
}
