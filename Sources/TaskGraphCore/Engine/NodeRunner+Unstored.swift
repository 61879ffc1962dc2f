extension NodeRunner {
    /// The digest in the store of the result of `node`, `result` (a `StoredResult` when it
    /// was reused): a result left out of the store is recomputed and stored now, and one its
    /// record held is stored as a blob now, for a job that reads its inputs from the store.
    func storedDigest(of result: any OperationResult, of node: Int, in plan: RunPlan, cache: RunCache) async throws
        -> ContentDigest
    {
        guard let stored = result as? StoredResult else { return try await cache.store.storeResult(result) }
        if stored.inline != nil { return try await cache.store.storeResult(try await cache.store.loadResult(stored)) }
        guard stored.isUnstored else { return stored.digest }
        return try await cache.store.storeResult(try await materialized(stored, of: node, in: plan, cache: cache))
    }
}
