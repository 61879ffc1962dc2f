import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphStore

/// A run that starts from the last run's results starts first the operations that will likely
/// run: those whose files changed, that the last run did not leave, or that are forced.
@Suite struct RunCacheStartTests {
    @Test func theOperationsLikelyToRunAreThoseWithChangedFilesNoResultOrForced() throws {
        var graph = ExecutionGraph()
        let noop = ClosureAction { _ in EmptyArtifact() }
        for id in ["same", "changed", "new", "forced"] { try graph.add(id, action: noop) }
        let plan = RunPlan(graph)
        let digest = ContentDigest.sha256(of: Data())
        let stored = StoredResult(digest: digest, resultKind: "empty", summary: "")
        let entry = { (file: String) in KnownResults.Entry(digest: digest, stored: stored, files: [file]) }
        let known = KnownResults(
            entries: ["same": entry("/a"), "changed": entry("/b"), "forced": entry("/c")], changedAtStart: ["/b"],
            isUnchanged: { _ in true })
        let store = try temporaryStore()
        let cache = RunCache(store: store, forcing: .ids(["forced"]), known: known)
        cache.begin(plan)
        #expect(cache.likelyToRun(in: plan) == [false, true, true, true])
        let withoutKnown = RunCache(store: store)
        withoutKnown.begin(plan)
        #expect(withoutKnown.likelyToRun(in: plan) == nil)
    }
}
