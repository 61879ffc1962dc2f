import Foundation

extension RunCache {
    /// Records the result of `node`, which ran successfully after a lookup that gave `key`, in
    /// `seconds` of wall time and `cpuSeconds` of CPU time measured for its action alone (not for
    /// reading or recomputing its inputs): stores it (or, when `storagePolicy` leaves it out, an
    /// `UnstoredResult` naming it), the files its action wrote and the action record, and
    /// remembers its digest for its dependents' keys. Without a key (not cacheable, `cache: false`) only the digest
    /// is computed, when a cached node needs it or the result is constant (the next run's
    /// `KnownResults` name it).
    /// - Returns: warnings for the run's events: the store could not take it (full, read-only),
    ///   or its digest could not be computed (what needs it is then not cacheable). The run
    ///   goes on.
    func record(
        _ node: Int, action: any TaskAction, key: ContentDigest?, result: any OperationResult, seconds: Double,
        cpuSeconds: Double?
    ) async -> [String] {
        let plan = graph
        let id = plan.id(of: node)
        guard let key, let cacheable = action as? any CacheableAction, let components = memo(of: node).components else {
            guard (action as? any CacheableAction)?.constantResult != nil || hasCachedDependent(node, in: plan) else {
                return []
            }
            return await rememberDigest(of: result, node: node, id: id).map { [$0] } ?? []
        }
        do {
            let unstored = unstoredReference(
                to: result, of: node, keyedBy: key, in: plan, action: cacheable,
                seconds: min(seconds, cpuSeconds ?? seconds))
            let record = try await store.storeBlobs(
                of: unstored ?? result, outputFiles: cacheable.outputFiles, id: id, components: components,
                seconds: seconds, inlining: !runsRemotely)
            recorded(node, unstored.map(StoredResult.init) ?? StoredResult(record), unstored: unstored)
            try await store.write(record, for: key)
            return []
        } catch {
            let skipped = "caching skipped for \(id): \(error)"
            guard memo(of: node).digest == nil,
                let failure = await rememberDigest(of: result, node: node, id: id)
            else { return [skipped] }
            return [skipped, failure]
        }
    }

    /// Computes the digest of `node`'s `result` for its dependents' keys.
    /// - Returns: a warning when it cannot be computed: what needs the node is not cacheable
    ///   this run (its decision says so).
    private func rememberDigest(of result: any OperationResult, node: Int, id: String) async -> String? {
        do {
            let digest = try await result.digest
            update(node) { $0.digest = digest }
            return nil
        } catch {
            return Self.digestFailure(of: id, error)
        }
    }

    /// Whether a node that needs `node` may be cached, so its key needs `node`'s digest.
    private func hasCachedDependent(_ node: Int, in plan: CacheGraph) -> Bool {
        plan.dependents.successors(of: node).contains { plan.read(Int($0)) { $0.pointee.settings.cache } }
    }

    /// The warning for a result of `id` whose digest failed with `error`.
    static func digestFailure(of id: String, _ error: any Error) -> String {
        "no digest of the result of \(id) (what needs it is not cached): \(error)"
    }

    /// Records `stored`, the result of `node` that a remote executor ran and wrote to the store.
    func finished(_ node: Int, remotely stored: StoredResult) {
        recorded(node, stored)
    }

    /// Records `record` of `node`, run in a fused chain's job, under `key`, with the key's
    /// components this run computed: as it is for the chain's tail (`isTail`); for an
    /// intermediate, naming a `StoredResult` of its result.
    /// - Returns: a warning when the store could not take it.
    func finished(_ node: Int, fused record: ActionRecord, key: ContentDigest?, isTail: Bool) async -> String? {
        let stored = StoredResult(record)
        recorded(node, stored)
        guard let key, let components = memo(of: node).components else { return nil }
        var record = record
        record.components = components
        do {
            if !isTail {
                record.result = try await store.storeResult(stored)
                record.resultKind = StoredResult.kind
            }
            try await store.write(record, for: key)
            return nil
        } catch {
            return "caching skipped for \(record.id): \(error)"
        }
    }

    /// Remembers that `node`'s result is in the store as `stored` (its dependents' keys need the
    /// digest; a dependent that runs reads the result back), or that its record names `unstored`
    /// instead.
    func recorded(_ node: Int, _ stored: StoredResult, unstored: UnstoredResult? = nil) {
        update(node) { memo in
            memo.digest = stored.digest
            memo.stored = stored
            memo.unstored = unstored
        }
    }

    /// The reference to record instead of `result` when `storagePolicy` leaves it out (running
    /// `node` again costs less than ten times writing it); nil to store it. Running it again costs `seconds` (the least
    /// of its wall time and the CPU time its action was measured to use: on a loaded machine it
    /// waited for a core; a filter on several threads takes less wall than CPU time), plus
    /// what its inputs left out of the store cost to recompute. Its dependents' keys then name
    /// the result by `key` (`UnstoredResult.identity(ofResultKeyedBy:)`): its bytes are never hashed.
    private func unstoredReference(
        to result: any OperationResult, of node: Int, keyedBy key: ContentDigest, in plan: CacheGraph,
        action: any CacheableAction, seconds: Double
    ) -> UnstoredResult? {
        guard !runsRemotely, action.isRecomputable, let byteCount = result.payloadByteCount,
            !plan.dependents.successors(of: node).isEmpty
        else { return nil }
        let inputsSeconds = plan.dependencies.successors(of: node).reduce(0.0) { total, dependency in
            total + (unstored(of: Int(dependency))?.recomputeSeconds ?? 0)
        }
        let recomputeSeconds = seconds + inputsSeconds
        guard !storagePolicy.keeps(byteCount: UInt64(byteCount), recomputeSeconds: recomputeSeconds) else { return nil }
        return UnstoredResult(
            identity: UnstoredResult.identity(ofResultKeyedBy: key), resultKind: type(of: result).kind,
            summary: result.summary,
            byteCount: UInt64(byteCount), recomputeSeconds: recomputeSeconds)
    }
}
