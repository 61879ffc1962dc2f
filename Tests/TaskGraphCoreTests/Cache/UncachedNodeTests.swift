import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// A node with `cache: false` costs nothing for the cache: no key, no components, no record, and
/// its result's digest only when a cached node needs it; what needs it names it as the cause of
/// its change, in a run and in `explain`.
struct UncachedNodeTests {
    private typealias Append = ReuseOrRunTests.Append
    private let runs = RunCacheTests.Runs()
    private let store = MemoryResultStore()
    private static let off = NodeSettings(cache: false)

    /// Runs `graph` with a new `RunCache` that remembers the components of `previous`.
    private func run(
        _ graph: ExecutionGraph, after previous: RunCache? = nil, events: ReuseOrRunTests.Warnings? = nil
    ) async -> (outcomes: [NodeOutcome.Kind], cache: RunCache) {
        let cache = cache(after: previous)
        let report = await Engine().run(graph, events: events, cache: cache)
        return (report.nodes.map(\.outcome.kind), cache)
    }

    private func cache(after previous: RunCache?) -> RunCache {
        let remembered = previous?.components ?? [:]
        return RunCache(
            store: store, previousComponents: { remembered[$0] },
            storagePolicy: StoragePolicy(secondsPerByte: 0, secondsPerBlob: 0))
    }

    /// `source` (`cache: false`) → `shout` → `keep`.
    private func chain(source: String) throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        let first = try graph.add("source", action: Append(word: source, runs: runs), settings: Self.off)
        let second = try graph.add("shout", action: Append(word: "B", runs: runs), needs: [first])
        try graph.add("keep", action: Append(word: "c", runs: runs), needs: [second])
        return graph
    }

    @Test func itHasNoKeyAndWhatNeedsItNamesItAsTheCause() async throws {
        let first = await run(try chain(source: "a"))
        #expect(first.outcomes == [.succeeded, .succeeded, .succeeded])
        #expect(
            first.cache.decisions.mapValues(\.fullExplanation) == [
                "source": "cache disabled", "shout": "new", "keep": "new",
            ])
        #expect(first.cache.components.keys.sorted() == ["keep", "shout"])
        #expect(store.recordWrites == 2)

        // The same result: what needs it is reused.
        _ = runs.taken()
        let second = await run(try chain(source: "a"), after: first.cache)
        #expect(second.outcomes == [.succeeded, .cached, .cached])
        #expect(runs.taken() == ["source"])

        let third = await run(try chain(source: "x"), after: second.cache)
        #expect(third.outcomes == [.succeeded, .succeeded, .succeeded])
        #expect(
            third.cache.decisions.mapValues(\.fullExplanation) == [
                "source": "cache disabled",
                "shout": "input changed: source <- cache disabled in source",
                "keep": "input changed: shout <- cache disabled in source",
            ])
    }

    @Test func explainNamesItAsTheCauseOfWhatNeedsIt() async throws {
        let explained = await cache(after: nil).explain(try chain(source: "a"))
        #expect(explained.map(\.id) == ["source", "shout", "keep"])
        #expect(
            explained.map { (try? $0.decision.get())?.fullExplanation } == [
                "cache disabled",
                "input changed: source <- cache disabled in source",
                "input changed: shout <- cache disabled in source",
            ])
    }

    @Test func itsResultIsDigestedOnlyWhenACachedNodeNeedsIt() async throws {
        var graph = ExecutionGraph()
        // Nothing cached needs `alone` or `before`: no digest is asked for, so none fails.
        try graph.add("alone", action: ClosureAction { _ in ReuseOrRunTests.Undigestible() }, settings: Self.off)
        let before = try graph.add(
            "before", action: ClosureAction { _ in ReuseOrRunTests.Undigestible() }, settings: Self.off)
        try graph.add("after", action: Append(word: "a", runs: runs), needs: [before], settings: Self.off)
        let needed = try graph.add(
            "needed", action: ClosureAction { _ in ReuseOrRunTests.Undigestible() }, settings: Self.off)
        try graph.add("cached", action: Append(word: "b", runs: runs), needs: [needed])
        let warnings = ReuseOrRunTests.Warnings()
        let result = await run(graph, events: warnings)
        #expect(result.outcomes == [.succeeded, .succeeded, .succeeded, .succeeded, .succeeded])
        #expect(warnings.all == ["no digest of the result of needed (what needs it is not cached): damaged blob"])
        #expect(result.cache.decisions["cached"] == CacheDecision(.miss, .notCacheable))
    }
}
