extension RunCache {
    /// For a hit on a record that names an `UnstoredResult` (its result was left out of the
    /// store, `StoragePolicy`): the placeholder of the result, which a dependent that runs
    /// recomputes. Nil, decided as a miss, when the reference cannot be read or `node` has no
    /// dependent (a final result is always stored, so that a run's results can be read).
    func unstoredPlaceholder(_ reference: StoredResult, of node: Int, in plan: CacheGraph) async -> StoredResult? {
        guard !plan.dependents.successors(of: node).isEmpty else {
            decide(node, CacheDecision(.miss, .new, detail: "its result was not stored (an intermediate result)"))
            return nil
        }
        do {
            guard let unstored = try await store.loadResult(reference) as? UnstoredResult else {
                throw EngineError.resultUnavailable(plan.id(of: node))
            }
            update(node) { $0.unstored = unstored }
            return StoredResult(unstored)
        } catch {
            decide(node, CacheDecision(.miss, .corrupt, detail: String(describing: error)))
            return nil
        }
    }

    /// Records that `node`, left out of the store, was run again for a dependent that needed
    /// its result (`recomputed: not stored (…)`).
    func recomputed(_ node: Int) {
        let detail = unstored(of: node)?.reason ?? "not stored (recomputing costs under 10× writing it)"
        decide(node, CacheDecision(.miss, .recomputed, detail: detail))
    }
}
