import Foundation

extension RunCache {
    /// Records the result of `node`, which ran successfully after a lookup that gave `key`:
    /// stores it (or, when `storagePolicy` finds recomputing it cheaper, an `UnstoredResult`
    /// naming it), the files its action wrote and the action record, and remembers its digest
    /// for its dependents' keys. Without a key (not cacheable, `cache: false`) only the digest
    /// is computed.
    /// - Returns: a warning when the store could not take it (full, read-only): the run goes on.
    func record(
        _ node: Int, of plan: RunPlan, action: any TaskAction, key: ContentDigest?, result: any Artifact,
        seconds: Double
    ) async -> String? {
        let id = plan.id(of: node)
        guard let key, let cacheable = action as? any CacheableAction, let components = memo(of: node).components else {
            let digest = try? await result.digest
            update(node) { $0.digest = digest }
            return nil
        }
        do {
            let unstored = try await unstoredReference(to: result, of: node, in: plan, action: cacheable, seconds: seconds)
            let record = try await store.storeBlobs(
                of: unstored ?? result, outputFiles: cacheable.outputFiles, id: id, components: components,
                seconds: seconds)
            recorded(node, unstored.map(StoredResult.init) ?? StoredResult(record), unstored: unstored)
            try await store.write(record, for: key)
            return nil
        } catch {
            if memo(of: node).digest == nil {
                let computed = try? await result.digest
                update(node) { $0.digest = computed }
            }
            return "caching skipped for \(id): \(error)"
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

    /// The reference to record instead of `result` when `storagePolicy` finds running `node`
    /// again cheaper than storing it; nil to store it. Running it again costs the least of its
    /// wall time (`seconds`) and the CPU time it was measured to use (on a loaded machine it
    /// waited for a core; a filter on several threads takes less wall than CPU time), plus
    /// what its inputs left out of the store cost to recompute.
    private func unstoredReference(
        to result: any Artifact, of node: Int, in plan: RunPlan, action: any CacheableAction, seconds: Double
    ) async throws -> UnstoredResult? {
        guard remote == nil, action.isRecomputable, let byteCount = result.payloadByteCount,
            !plan.dependents.successors(of: node).isEmpty
        else { return nil }
        let inputsSeconds = plan.dependencies.successors(of: node).reduce(0.0) { total, dependency in
            total + (unstored(of: Int(dependency))?.recomputeSeconds ?? 0)
        }
        let recomputeSeconds = min(seconds, UsageMeter.current?.usage?.cpuTime ?? seconds) + inputsSeconds
        guard !storagePolicy.keeps(byteCount: UInt64(byteCount), recomputeSeconds: recomputeSeconds) else { return nil }
        return UnstoredResult(
            resultDigest: try await result.digest, resultKind: type(of: result).kind, summary: result.summary,
            byteCount: UInt64(byteCount), recomputeSeconds: recomputeSeconds)
    }
}
