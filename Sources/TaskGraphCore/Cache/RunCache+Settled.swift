extension RunCache {
    /// The nodes reused before any worker starts: each is one `known` shows unchanged
    /// (cacheable, not forced, its own files unchanged when the run started, its result
    /// stored), every node it needs is one too, and no node that needs it runs only on failure.
    /// `lookup` would reuse each of them as it was, untouched; on a large graph after a small
    /// change they are most of the nodes, and they are settled here in one pass instead of one
    /// by one through the workers. Records their memos and decisions as `lookup` and `hit` do.
    /// - Returns: the settled nodes with their stored results, each after the nodes it needs;
    ///   none when the run starts from nothing known.
    func settledAtStart() -> [(node: Int, stored: StoredResult)] {
        let plan = graph
        guard reuse, let known, let order = dependencyOrder(plan.dependencies) else { return [] }
        var isSettled = [Bool](repeating: false, count: plan.count)
        var settled: [(node: Int, stored: StoredResult)] = []
        updateAll { memos, forced in
            for node in order where !forced[node] {
                guard plan.dependencies.successors(of: node).allSatisfy({ isSettled[Int($0)] }),
                    let (id, stored) = Self.unchangedResult(of: node, in: plan, known: known)
                else { continue }
                isSettled[node] = true
                settled.append((node, stored))
                memos[node].id = id
                memos[node].digest = stored.digest
                memos[node].stored = stored
                memos[node].decision = CacheDecision(.hit, .unchanged)
                memos[node].reusedFromKnown = true
                memos[node].untouched = true
            }
        }
        return settled
    }

    /// The id of `node` and the stored result `known` has for it when its own files were
    /// unchanged at the start and nothing keeps it from being settled (see `settledAtStart`).
    private static func unchangedResult(
        of node: Int, in plan: CacheGraph, known: KnownResults
    ) -> (id: String, stored: StoredResult)? {
        let id = plan.id(of: node)
        let settings = plan.read(node) { $0.pointee.settings }
        guard !known.changedOperations.contains(id), let stored = known.entries[id]?.stored, settings.cache,
            let cacheable = plan.read(node, { $0.pointee.action }) as? any CacheableAction,
            cacheable.constantResult == nil,
            cacheable.alwaysRunReason == nil || settings.cacheRequested,
            plan.dependents.successors(of: node).allSatisfy({
                plan.read(Int($0)) { $0.pointee.settings.when } != .failure
            })
        else { return nil }
        return (id, stored)
    }
}
