import Foundation
import OperationTestSupport
import TaskGraphCore
import Testing

@testable import TaskGraphImaging

/// Intermediate images left out of the store when recomputing them costs less
/// (`StoragePolicy`): their records name an `UnstoredResult`, a later run reuses them as hits
/// and recomputes one only when an operation that runs needs it. What needs such a result names it
/// by its operation's key (`UnstoredResult.identity(ofResultKeyedBy:)`), not by its bytes.
struct UnstoredImagesTests {
    private let directory: URL
    /// Leaves out every result it may: nothing is worth its bytes.
    private let leavesOut = StoragePolicy(secondsPerByte: 1, secondsPerBlob: 1)
    /// Keeps every result.
    private let keeps = StoragePolicy(secondsPerByte: 0, secondsPerBlob: 0)

    init() throws {
        directory = try makeScratchDirectory()
        try fixture("sunset-320.jpg").write(to: directory.appendingPathComponent("photo.jpg"))
    }

    private func setup(_ type: String, _ id: String, _ parameters: [String: ParameterValue] = [:]) -> OperationSetup {
        OperationSetup(
            type: type, id: id, parameters: Parameters(parameters), pipelineDirectory: directory.path,
            outputDirectory: directory.path)
    }

    /// load → blur → sepia → grayscale; `upTo` "soft" stops after the blur.
    private func graph(radius: Double = 2, intensity: Double = 0.8, upTo last: String = "gray") throws
        -> ExecutionGraph
    {
        let registry = OperationRegistry.imaging
        var graph = ExecutionGraph()
        let source = try graph.add(
            "source", action: registry.makeAction(for: setup("load", "source", ["path": .string("photo.jpg")])))
        let soft = try graph.add(
            "soft", action: registry.makeAction(for: setup("blur", "soft", ["blur_radius": .number(radius)])),
            needs: [source])
        guard last != "soft" else { return graph }
        let tone = try graph.add(
            "tone", action: registry.makeAction(for: setup("sepia", "tone", ["intensity": .number(intensity)])),
            needs: [soft])
        try graph.add("gray", action: registry.makeAction(for: setup("grayscale", "gray")), needs: [tone])
        return graph
    }

    /// The record each node's key names in `store`, by id.
    private func records(_ cache: RunCache, in store: MemoryResultStore) async -> [String: ActionRecord] {
        var records: [String: ActionRecord] = [:]
        for (id, components) in cache.components { records[id] = await store.record(for: components.key) }
        return records
    }

    @Test func intermediatesAreLeftOutAndRecomputedWhenNeeded() async throws {
        let store = MemoryResultStore()
        let first = RunCache(store: store, storagePolicy: leavesOut)
        let cold = await Engine().run(try graph(), cache: first)
        #expect(cold.nodes.map(\.outcome.kind) == [.succeeded, .succeeded, .succeeded, .succeeded])
        let recorded = await records(first, in: store)
        // A load reads a file: it is not recomputable. A final result is always kept.
        #expect(
            recorded.mapValues(\.resultKind) == [
                "source": "file.loaded", "soft": "result.unstored", "tone": "result.unstored", "gray": "image.decoded",
            ])
        let softRecord = try #require(recorded["soft"])
        let soft = try #require(try await store.loadResult(softRecord.result) as? UnstoredResult)
        #expect(soft.resultKind == "image.decoded")
        #expect(soft.byteCount == UInt64(16 + 320 * 213 * 3))

        let changed = RunCache(store: store, storagePolicy: leavesOut)
        let warm = await Engine().run(try graph(intensity: 0.5), cache: changed)
        #expect(warm.nodes.map(\.outcome.kind) == [.cached, .cached, .succeeded, .succeeded])
        #expect(changed.decisions["soft"] == CacheDecision(.miss, .recomputed, detail: soft.reason))
        #expect(changed.decisions["source"] == CacheDecision(.hit, .unchanged))
        let uncached = await Engine().run(try graph(intensity: 0.5))
        #expect(try await warm.finalResults["gray"]?.digest == uncached.finalResults["gray"]?.digest)

        let again = RunCache(store: store, storagePolicy: leavesOut)
        let unchanged = await Engine().run(try graph(intensity: 0.5), cache: again)
        #expect(unchanged.nodes.map(\.outcome.kind) == [.cached, .cached, .cached, .cached])
        #expect(Set(again.decisions.values) == [CacheDecision(.hit, .unchanged)])
    }

    @Test func everyResultIsKeptWhenStoringIsCheaper() async throws {
        let store = MemoryResultStore()
        let cache = RunCache(store: store, storagePolicy: keeps)
        _ = await Engine().run(try graph(), cache: cache)
        #expect(await records(cache, in: store).values.filter { $0.resultKind == UnstoredResult.kind }.isEmpty)
    }

    @Test func aResultLeftOutIsNotReusedAsAFinalResult() async throws {
        let store = MemoryResultStore()
        _ = await Engine().run(try graph(), cache: RunCache(store: store, storagePolicy: leavesOut))
        let cache = RunCache(store: store, storagePolicy: leavesOut)
        let run = await Engine().run(try graph(upTo: "soft"), cache: cache)
        #expect(run.nodes.map(\.outcome.kind) == [.cached, .succeeded])
        #expect(
            cache.decisions["soft"]
                == CacheDecision(.miss, .new, detail: "its result was not stored (an intermediate result)"))
        #expect(try await run.finalResults["soft"]?.digest != nil)
    }

    @Test func whatNeedsAResultLeftOutNamesItByItsOperationsKey() async throws {
        let store = MemoryResultStore()
        let cache = RunCache(store: store, storagePolicy: leavesOut)
        _ = await Engine().run(try graph(), cache: cache)
        let softKey = try #require(cache.components["soft"]).key
        let identity = UnstoredResult.identity(ofResultKeyedBy: softKey)
        let record = try #require(await store.record(for: softKey))
        #expect(try await (store.loadResult(record.result) as? UnstoredResult)?.identity == identity)
        let toneInputs = try #require(cache.components["tone"]).components.filter { $0.name.hasPrefix("input.") }
        #expect(toneInputs.map(\.value) == [identity.description])
        // A `load` is not recomputable: what needs it names the digest of its result's bytes.
        let sourceKey = try #require(cache.components["source"]).key
        let sourceRecord = try #require(await store.record(for: sourceKey))
        let softInputs = try #require(cache.components["soft"]).components.filter { $0.name.hasPrefix("input.") }
        #expect(softInputs.map(\.value) == [sourceRecord.result.description])
        // Keeping it, the key names the digest of its bytes instead.
        let kept = RunCache(store: MemoryResultStore(), storagePolicy: keeps)
        let run = await Engine().run(try graph(upTo: "soft"), cache: kept)
        let digest = try #require(try await run.finalResults["soft"]?.digest)
        #expect(digest != identity)
    }

    @Test func aChangedParameterUpstreamOfResultsLeftOutRunsEverythingAfterIt() async throws {
        let store = MemoryResultStore()
        _ = await Engine().run(try graph(), cache: RunCache(store: store, storagePolicy: leavesOut))
        let changed = RunCache(store: store, storagePolicy: leavesOut)
        let run = await Engine().run(try graph(radius: 3), cache: changed)
        #expect(run.nodes.map(\.outcome.kind) == [.cached, .succeeded, .succeeded, .succeeded])
        // No earlier components are given to compare with: each key is simply not in the store.
        for id in ["soft", "tone", "gray"] { #expect(changed.decisions[id] == CacheDecision(.miss, .new)) }
        let uncached = await Engine().run(try graph(radius: 3))
        #expect(try await run.finalResults["gray"]?.digest == uncached.finalResults["gray"]?.digest)
        // The first pipeline's results are still there, by their own keys.
        let back = RunCache(store: store, storagePolicy: leavesOut)
        let original = await Engine().run(try graph(), cache: back)
        #expect(original.nodes.map(\.outcome.kind) == [.cached, .cached, .cached, .cached])
    }
}
