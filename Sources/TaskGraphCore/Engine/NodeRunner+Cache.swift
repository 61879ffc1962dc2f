import Foundation

extension NodeRunner {
    /// Runs `node` against the run's store: asks the cache whether to reuse its stored result
    /// (`RunCache.prepare`) and otherwise runs it (here or through the run's remote executor)
    /// and tells the cache how it ended (`RunCache.finished`).
    func runCached(_ index: Int, of plan: RunPlan, results: [RunState.Input], lane: Int, cache: RunCache) async
        -> Completion
    {
        let fusedIntermediate = fusion?.chains.chain(of: index).map { $0.position < $0.chain.count - 1 } ?? false
        let key: ContentDigest?
        switch await cache.prepare(
            index, resources: resources, fusedIntermediate: fusedIntermediate,
            context: {
                TaskContext(id: plan.id(of: index), resources: resources, progressHandler: progressHandler(for: index))
            })
        {
        case .failed(let error):
            return Completion(failure: error, attempts: 1)
        case .cancelled:
            return Completion(outcome: .cancelled, attempts: 0)
        case .reuse(let result, let decision, let fusedReference):
            if fusedReference { fusion?.markUnstored(index) }
            emit(.nodeCacheDecided(node: index, decision))
            return Completion(outcome: .cached, result: result, attempts: 0)
        case .fetched(let result, let decision, let warnings):
            emit(.nodeCacheDecided(node: index, decision))
            for warning in warnings { emit(.warning(node: index, message: warning)) }
            return Completion(outcome: .succeeded, result: result, attempts: 1)
        case .run(let runKey, let decision):
            if let decision { emit(.nodeCacheDecided(node: index, decision)) }
            key = runKey
        }
        let action = plan.read(index) { $0.pointee.action }
        if let constant = (action as? any CacheableAction)?.constantResult {
            // No work to run, time or retry: no inputs read, no trip to the pool or a cluster.
            emit(.nodeStarted(node: index, attempt: 1, lane: lane))
            for warning in await cache.finished(index, key: nil, result: constant, seconds: 0, cpuSeconds: 0) {
                emit(.warning(node: index, message: warning))
            }
            return Completion(outcome: .succeeded, result: constant, attempts: 1)
        }
        if let remote = options.remote,
            plan.read(index, { remote.accepts($0.pointee.settings) && $0.pointee.setup != nil })
        {
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
        // The node's meter has counted its lookup and the reading and recomputing of its inputs
        // so far: what its action costs is measured from here.
        let meter = UsageMeter.current
        let cpuBefore = meter?.usage?.cpuTime ?? 0
        let started = ContinuousClock.now
        // A program's action only hands the program to the reaper thread and waits: it has no
        // work to keep off the blocking threads, and runs in place, without a trip to the pool
        // and back around every program (two thread wake-ups each).
        let completion =
            action is any ProgramStartingAction
            ? await runAttempts(index, of: plan, inputs: inputs, lane: lane)
            : await onCooperativePool { await runAttempts(index, of: plan, inputs: inputs, lane: lane) }
        if let result = completion.result {
            let seconds = (ContinuousClock.now - started).inSeconds
            // Nil when nothing was measured for it (all its work on the cooperative pool): its
            // wall time counts then.
            let cpuSeconds = (meter?.usage?.cpuTime).map { $0 - cpuBefore }.flatMap { $0 > 0 ? $0 : nil }
            for warning in await cache.finished(
                index, key: key, result: result, seconds: seconds, cpuSeconds: cpuSeconds)
            {
                emit(.warning(node: index, message: warning))
            }
        }
        return completion
    }

    /// The inputs as the action sees them: results reused from the store are read now, since
    /// this node runs and needs them. A result found damaged is removed and recomputed by
    /// running the node that produced it again.
    private func resolve(_ results: [RunState.Input], of plan: RunPlan, cache: RunCache) async throws -> [TaskContext
        .Input]
    {
        var inputs: [TaskContext.Input] = []
        inputs.reserveCapacity(results.count)
        for result in results {
            inputs.append(
                TaskContext.Input(
                    id: plan.id(of: Int(result.node)),
                    result: try await materialized(result.value, of: Int(result.node), in: plan, cache: cache)))
        }
        return inputs
    }

    /// `result` itself, or for a stored result, the value read from the store (recomputed
    /// when the blob is damaged or gone, or when it was left out of the store).
    func materialized(_ result: any OperationResult, of node: Int, in plan: RunPlan, cache: RunCache) async throws
        -> any OperationResult
    {
        guard let stored = result as? StoredResult else { return result }
        if stored.isUnstored { return try await recomputeUnstored(node, of: plan, cache: cache) }
        do {
            return try await cache.store.loadResult(stored)
        } catch {
            try Task.checkCancellation()
            emit(.warning(node: node, message: "\(error), recomputed"))
            let result = try await recompute(node, of: plan, cache: cache)
            do {
                _ = try await cache.store.storeResult(result)
            } catch {
                emit(.warning(node: node, message: "caching skipped for \(plan.id(of: node)): \(error)"))
            }
            return result
        }
    }

    /// Runs `node` again, once, for a dependent that needs its result now that the stored one
    /// is damaged or was not stored; its own inputs are read from the store (or recomputed) the
    /// same way.
    private func recompute(_ node: Int, of plan: RunPlan, cache: RunCache) async throws -> any OperationResult {
        var inputs: [TaskContext.Input] = []
        for dependency in plan.dependencies.successors(of: node).map(Int.init) {
            let result: any OperationResult
            if let stored = cache.storedResult(of: dependency) {
                result = try await materialized(stored, of: dependency, in: plan, cache: cache)
            } else if let constant = plan.read(
                dependency, { ($0.pointee.action as? any CacheableAction)?.constantResult })
            {
                result = constant
            } else {
                throw EngineError.resultUnavailable(plan.id(of: dependency))
            }
            inputs.append(TaskContext.Input(id: plan.id(of: dependency), result: result))
        }
        let (id, action, preferred) = plan.read(node) {
            ($0.pointee.id, $0.pointee.action, $0.pointee.preferredInputID)
        }
        let context = TaskContext(id: id, inputs: inputs, preferredInputID: preferred, resources: resources)
        return try await onCooperativePool { try await action.run(in: context) }
    }

    /// Runs `node` again for a dependent that needs its result, which was left out of the store
    /// (`StoragePolicy`); its decision then says why it ran (`recomputed: not stored (…)`).
    /// Nothing is checked against the record: the result's identity is its operation's key
    /// (`UnstoredResult.identity(ofResultKeyedBy:)`), which names this computation, and a
    /// recomputable operation gives one result for it (docs/cache.md, "What is kept").
    private func recomputeUnstored(_ node: Int, of plan: RunPlan, cache: RunCache) async throws
        -> any OperationResult
    {
        let result = try await recompute(node, of: plan, cache: cache)
        cache.recomputed(node)
        return result
    }

    /// Runs `body`, an action's own work, on the cooperative pool: with a cache, the engine's
    /// workers prefer the run's blocking threads (`Engine.run`), where the store's work is done
    /// in place; actions keep the cooperative pool and send their blocking work there.
    private func onCooperativePool<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T
    {
        try await withTaskExecutorPreference(globalConcurrentExecutor, operation: body)
    }
}
