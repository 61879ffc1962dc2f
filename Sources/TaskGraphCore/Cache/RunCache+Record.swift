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
        var digest: ContentDigest?
        do {
            let stored = try await store.storeResult(result)
            digest = stored
            update(node) { memo in
                memo.digest = stored
                memo.stored = StoredResult(digest: stored, resultKind: type(of: result).kind, summary: result.summary)
            }
            var files: [ActionRecord.OutputFile] = []
            for path in cacheable.outputFiles {
                files.append(ActionRecord.OutputFile(path: path, digest: try await store.storeFile(at: path)))
            }
            let record = ActionRecord(
                result: stored, resultKind: type(of: result).kind, summary: result.summary, outputFiles: files,
                validators: (result as? any RevalidatableResult)?.validators ?? [:], seconds: seconds,
                recordedAt: Date().timeIntervalSince1970, id: id, components: components)
            try await store.write(record, for: key)
            return nil
        } catch {
            if digest == nil {
                let computed = try? await result.digest
                update(node) { $0.digest = computed }
            }
            return "caching skipped for \(id): \(error)"
        }
    }
}
