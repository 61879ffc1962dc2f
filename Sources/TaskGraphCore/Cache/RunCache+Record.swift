import Foundation

extension RunCache {
    /// Records the result of `node`, which ran successfully after a lookup that gave `key`:
    /// stores it, the files its action wrote and the action record, and remembers its digest
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
            let record = try await store.storeBlobs(
                of: result, outputFiles: cacheable.outputFiles, id: id, components: components, seconds: seconds)
            recorded(node, StoredResult(record))
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
    /// digest; a dependent that runs reads the result back).
    func recorded(_ node: Int, _ stored: StoredResult) {
        update(node) { memo in
            memo.digest = stored.digest
            memo.stored = stored
        }
    }
}
