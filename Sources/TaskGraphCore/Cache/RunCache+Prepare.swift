import Foundation

extension RunCache {
    /// Decides, once every node `node` needs has ended, whether it is reused or runs: computes
    /// its key, reuses its stored result (restoring the files it wrote, revalidating a remote
    /// source) or says to run it. Its decision is recorded; the engine reports it.
    /// - Parameters:
    ///   - resources: the run's threads, for the checks of the files it restores.
    ///   - fusedIntermediate: `node` is a fused chain's intermediate in this run (whose next node
    ///     needs only its result's reference).
    ///   - context: the context its action revalidates a stored result in.
    func prepare(
        _ node: Int, resources: RunResources, fusedIntermediate: Bool, context: () -> TaskContext
    ) async -> ReuseOrRun {
        let plan = graph
        let action = plan.read(node) { $0.pointee.action }
        switch await lookup(node, of: plan, action: action) {
        case .failed(let error):
            return .failed(error)
        case .known(let stored):
            return .reuse(stored, CacheDecision(.hit, .unchanged))
        case .constant(let result):
            do {
                reused(node, constant: try await result.digest)
            } catch {
                return .failed(error)
            }
            return .reuse(result, CacheDecision(.hit, .unchanged))
        case .run(let key):
            return .run(key: key, decision: memo(of: node).decision)
        case .hit(var stored, let record, let unverified, let key):
            var isFusedReference = false
            if record.resultKind == UnstoredResult.kind {
                guard let placeholder = await unstoredPlaceholder(stored, of: node, in: plan) else {
                    return .run(key: key, decision: memo(of: node).decision)
                }
                stored = placeholder
            } else if record.resultKind == StoredResult.kind {
                // A fused chain's intermediate: its result is not stored.
                guard let reference = await fusedReference(stored, of: node, intermediate: fusedIntermediate) else {
                    return .run(key: key, decision: memo(of: node).decision)
                }
                stored = reference
                isFusedReference = true
            }
            let reuse = await reuse(
                stored, record: record, unverified: unverified, key: key, node: node, action: action,
                resources: resources, context: context)
            guard case .reuse(let result, let decision, _) = reuse else { return reuse }
            return .reuse(result, decision, fusedIntermediate: isFusedReference)
        }
    }

    /// Records how `node` ended after it ran here and succeeded with `result` in `seconds` of
    /// wall time and `cpuSeconds` of CPU time measured for its action (`prepare` said to run it
    /// under `key`): see `record`.
    /// - Returns: warnings for the run's events (the store could not take it, its digest failed).
    func finished(
        _ node: Int, key: ContentDigest?, result: any OperationResult, seconds: Double, cpuSeconds: Double?
    ) async -> [String] {
        let action = graph.read(node) { $0.pointee.action }
        return await record(node, action: action, key: key, result: result, seconds: seconds, cpuSeconds: cpuSeconds)
    }

    /// Reuses `stored`: restores those of `record`'s files in `unverified` that are missing or
    /// changed and revalidates the source. Returns `.run` when the node must run after all (a
    /// damaged blob: its decision says why).
    private func reuse(
        _ stored: StoredResult, record: ActionRecord, unverified: [ActionRecord.OutputFile], key: ContentDigest,
        node: Int, action: any TaskAction, resources: RunResources, context: () -> TaskContext
    ) async -> ReuseOrRun {
        var decision = CacheDecision(.hit, .unchanged)
        let outputDirectory = graph.read(node) { $0.pointee.setup?.outputDirectory }.map(PathResolver.normalized)
        do {
            // A link placed in the output directory since is not followed out of it: the node
            // runs instead, and its write says why it fails.
            if let outputDirectory {
                let contained = record.outputFiles.map(\.path).filter { $0.hasPrefix(outputDirectory + "/") }
                if !contained.isEmpty {
                    try await resources.blockingIO.run {
                        for path in contained { try ContainedDirectory.check(path, beneath: outputDirectory) }
                    }
                }
            }
            for file in unverified where try await store.materialize(file) {
                decision = CacheDecision(.hit, .outputRestored, detail: "\(displayPath(file.path)) (restored)")
            }
        } catch {
            let decision = CacheDecision(.miss, .corrupt, detail: String(describing: error))
            decide(node, decision)
            return .run(key: key, decision: decision)
        }
        if let cacheable = action as? any CacheableAction {
            let context = context()
            let started = ContinuousClock.now
            do {
                // A fresh body equal to the stored one (a server without validators) is a hit.
                if let fresh = try await withTaskExecutorPreference(
                    globalConcurrentExecutor,
                    operation: {
                        try await cacheable.revalidate(validators: record.validators, in: context)
                    }),
                    try await fresh.digest != stored.digest
                {
                    let decision = CacheDecision(.miss, .remoteChanged)
                    decide(node, decision)
                    let seconds = (ContinuousClock.now - started).inSeconds
                    let warnings = await self.record(
                        node, action: action, key: key, result: fresh, seconds: seconds, cpuSeconds: nil)
                    return .fetched(fresh, decision, warnings: warnings)
                }
            } catch {
                if Task.isCancelled { return .cancelled }
                let decision = CacheDecision(.miss, .remoteChanged, detail: "revalidation failed: \(error)")
                decide(node, decision)
                return .run(key: key, decision: decision)
            }
        }
        hit(node, stored: stored, decision: decision)
        return .reuse(stored, decision)
    }

    /// For a hit on the record of a fused chain's intermediate, which names `reference` (a
    /// `StoredResult` of its result): the result, when `node` is an `intermediate` of a chain of
    /// this run too (whose next node needs only its digest, and runs its job from this chain's
    /// start otherwise); else nil, decided as a miss: a dependent would need the result itself.
    private func fusedReference(_ reference: StoredResult, of node: Int, intermediate: Bool) async -> StoredResult? {
        guard intermediate, let stored = try? await store.loadResult(reference) as? StoredResult else {
            decide(node, CacheDecision(.miss, .new, detail: "its result was not stored (a fused chain's intermediate)"))
            return nil
        }
        return stored
    }
}
