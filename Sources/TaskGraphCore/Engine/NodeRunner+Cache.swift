import Foundation

extension NodeRunner {
    /// Runs `node` against the run's store: reuses its stored result (restoring the files it
    /// wrote, revalidating a remote source) or runs it and records the result.
    func runCached(_ index: Int, of plan: RunPlan, results: [RunState.Input], lane: Int, cache: RunCache) async
        -> Completion
    {
        let action = plan.read(index) { $0.pointee.action }
        let key: ContentDigest?
        switch await cache.lookup(index, of: plan, action: action) {
        case .failed(let error):
            return Completion(failure: error, attempts: 1)
        case .known(let stored):
            emit(.nodeCacheDecided(node: index, CacheDecision(.hit, .unchanged)))
            return Completion(outcome: .cached, result: stored, attempts: 0)
        case .hit(var stored, let record, let unverified, let hitKey):
            if record.resultKind == UnstoredResult.kind {
                guard let placeholder = await cache.unstoredPlaceholder(stored, of: index, in: plan) else {
                    key = hitKey
                    break
                }
                stored = placeholder
            } else if record.resultKind == StoredResult.kind {
                // A fused chain's intermediate: its result is not stored.
                guard let reference = await unstoredResult(stored, of: index, cache: cache) else {
                    key = hitKey
                    break
                }
                stored = reference
            }
            if let completion = await reuse(
                stored, record: record, unverified: unverified, key: hitKey, node: index, of: plan, action: action,
                cache: cache)
            {
                return completion
            }
            key = hitKey
        case .constant(let result):
            do {
                cache.reused(index, constant: try await result.digest)
            } catch {
                return Completion(failure: error, attempts: 1)
            }
            emit(.nodeCacheDecided(node: index, CacheDecision(.hit, .unchanged)))
            return Completion(outcome: .cached, result: result, attempts: 0)
        case .run(let runKey):
            key = runKey
        }
        if let decision = cache.memo(of: index).decision { emit(.nodeCacheDecided(node: index, decision)) }
        if let constant = (action as? any CacheableAction)?.constantResult {
            // No work to run, time or retry: no inputs read, no trip to the pool or a cluster.
            emit(.nodeStarted(node: index, attempt: 1, lane: lane))
            _ = await cache.record(index, of: plan, action: action, key: nil, result: constant, seconds: 0)
            return Completion(outcome: .succeeded, result: constant, attempts: 1)
        }
        if let remote = cache.remote, plan.read(index, { remote.accepts($0.pointee.settings) && $0.pointee.setup != nil }) {
            if let fusion, let (chain, position) = fusion.chains.chain(of: index) {
                return await runFused(
                    index, in: chain, at: position, of: plan, results: results, key: key, on: remote, fusion: fusion,
                    lane: lane, cache: cache)
            }
            return await runRemotely(index, of: plan, results: results, key: key, on: remote, lane: lane, cache: cache)
        }
        let inputs: [TaskContext.Input]
        do {
            inputs = try await resolve(results, of: plan, cache: cache)
        } catch {
            return .ended(by: error, attempts: 1)
        }
        let started = ContinuousClock.now
        let completion = await onCooperativePool { await runAttempts(index, of: plan, inputs: inputs, lane: lane) }
        if let result = completion.result {
            let seconds = (ContinuousClock.now - started).inSeconds
            if let warning = await cache.record(index, of: plan, action: action, key: key, result: result, seconds: seconds) {
                emit(.warning(node: index, message: warning))
            }
        }
        return completion
    }

    /// Reuses `stored`: restores those of `record`'s files in `unverified` that are missing or
    /// changed and revalidates the source. Returns the completion, or nil when the node must
    /// run after all (a damaged blob; the decision says why).
    private func reuse(
        _ stored: StoredResult, record: ActionRecord, unverified: [ActionRecord.OutputFile], key: ContentDigest,
        node index: Int, of plan: RunPlan, action: any TaskAction, cache: RunCache
    ) async -> Completion? {
        var decision = CacheDecision(.hit, .unchanged)
        let outputDirectory = plan.read(index) { $0.pointee.setup?.outputDirectory }.map(PathResolver.normalized)
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
            for file in unverified where try await cache.store.materialize(file.digest, at: file.path) {
                decision = CacheDecision(.hit, .outputRestored, detail: "\(cache.displayPath(file.path)) (restored)")
            }
        } catch {
            cache.decide(index, CacheDecision(.miss, .corrupt, detail: String(describing: error)))
            return nil
        }
        if let cacheable = action as? any CacheableAction {
            let context = TaskContext(id: plan.id(of: index), resources: resources, progressHandler: progressHandler(for: index))
            let started = ContinuousClock.now
            do {
                // A fresh body equal to the stored one (a server without validators) is a hit.
                if let fresh = try await onCooperativePool({
                    try await cacheable.revalidate(validators: record.validators, in: context)
                }),
                    try await fresh.digest != stored.digest
                {
                    let decision = CacheDecision(.miss, .remoteChanged)
                    cache.decide(index, decision)
                    emit(.nodeCacheDecided(node: index, decision))
                    let seconds = (ContinuousClock.now - started).inSeconds
                    if let warning = await cache.record(index, of: plan, action: action, key: key, result: fresh, seconds: seconds) {
                        emit(.warning(node: index, message: warning))
                    }
                    return Completion(outcome: .succeeded, result: fresh, attempts: 1)
                }
            } catch {
                if Task.isCancelled { return Completion(outcome: .cancelled, attempts: 0) }
                cache.decide(index, CacheDecision(.miss, .remoteChanged, detail: "revalidation failed: \(error)"))
                return nil
            }
        }
        cache.hit(index, stored: stored, decision: decision)
        emit(.nodeCacheDecided(node: index, decision))
        return Completion(outcome: .cached, result: stored, attempts: 0)
    }

    /// The inputs as the action sees them: results reused from the store are read now, since
    /// this node runs and needs them. A result found damaged is removed and recomputed by
    /// running the node that produced it again.
    private func resolve(_ results: [RunState.Input], of plan: RunPlan, cache: RunCache) async throws -> [TaskContext.Input] {
        var inputs: [TaskContext.Input] = []
        inputs.reserveCapacity(results.count)
        for result in results {
            inputs.append(TaskContext.Input(
                id: plan.id(of: Int(result.node)),
                artifact: try await materialized(result.artifact, of: Int(result.node), in: plan, cache: cache)))
        }
        return inputs
    }

    /// `artifact` itself, or for a stored result, the value read from the store (recomputed
    /// when the blob is damaged or gone, or when it was left out of the store).
    func materialized(_ artifact: any Artifact, of node: Int, in plan: RunPlan, cache: RunCache) async throws
        -> any Artifact
    {
        guard let stored = artifact as? StoredResult else { return artifact }
        if stored.isUnstored { return try await recomputeUnstored(node, digest: stored.digest, of: plan, cache: cache) }
        do {
            return try await cache.store.loadResult(stored.digest)
        } catch {
            try Task.checkCancellation()
            emit(.warning(node: node, message: "\(error), recomputed"))
            let result = try await recompute(node, of: plan, cache: cache)
            _ = try? await cache.store.storeResult(result)
            return result
        }
    }

    /// Runs `node` again, once, for a dependent that needs its result now that the stored one
    /// is damaged or was not stored; its own inputs are read from the store (or recomputed) the
    /// same way.
    private func recompute(_ node: Int, of plan: RunPlan, cache: RunCache) async throws -> any Artifact {
        var inputs: [TaskContext.Input] = []
        for dependency in plan.dependencies.successors(of: node).map(Int.init) {
            let artifact: any Artifact
            if let stored = cache.memo(of: dependency).stored {
                artifact = try await materialized(stored, of: dependency, in: plan, cache: cache)
            } else if let constant = plan.read(dependency, { ($0.pointee.action as? any CacheableAction)?.constantResult }) {
                artifact = constant
            } else {
                throw EngineError.resultUnavailable(plan.id(of: dependency))
            }
            inputs.append(TaskContext.Input(id: plan.id(of: dependency), artifact: artifact))
        }
        let (id, action, preferred) = plan.read(node) { ($0.pointee.id, $0.pointee.action, $0.pointee.preferredInputID) }
        let context = TaskContext(id: id, inputs: inputs, preferredInputID: preferred, resources: resources)
        return try await onCooperativePool { try await action.run(in: context) }
    }

    /// Runs `node` again for a dependent that needs its result, which was left out of the store
    /// (`StoragePolicy`): checked against the recorded `digest`, its decision then says why it
    /// ran (`recomputed: not stored (…)`).
    /// - Throws: `EngineError.recomputedResultDiffers` when it comes out otherwise.
    private func recomputeUnstored(_ node: Int, digest: ContentDigest, of plan: RunPlan, cache: RunCache) async throws
        -> any Artifact
    {
        let result = try await recompute(node, of: plan, cache: cache)
        guard try await result.digest == digest else { throw EngineError.recomputedResultDiffers(plan.id(of: node)) }
        let detail = cache.unstored(of: node)?.reason ?? "not stored (cheaper to recompute)"
        cache.decide(node, CacheDecision(.miss, .recomputed, detail: detail))
        return result
    }

    /// Runs `body`, an action's own work, on the cooperative pool: with a cache, the engine's
    /// workers prefer the run's blocking threads (`Engine.run`), where the store's work is done
    /// in place; actions keep the cooperative pool and send their blocking work there.
    private func onCooperativePool<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        try await withTaskExecutorPreference(globalConcurrentExecutor, operation: body)
    }
}
