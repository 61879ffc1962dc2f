extension NodeRunner {
    /// Runs `node` through `remote`: stores the inputs it does not already find in the store,
    /// then runs its attempts as `RemoteJob`s. Its result stays in the store: dependents get a
    /// `StoredResult`, read back only by a dependent that runs in this process.
    func runRemotely(
        _ index: Int, of plan: RunPlan, results: [RunState.Input], key: ContentDigest?, on remote: any RemoteExecutor,
        lane: Int, cache: RunCache
    ) async -> Completion {
        let inputs: [RemoteJob.Input]
        do {
            inputs = try await stored(results, of: plan, cache: cache)
        } catch {
            return .ended(by: error, attempts: 1)
        }
        let (setup, settings) = plan.read(index) { ($0.pointee.setup!, $0.pointee.settings) }
        let components = cache.components(of: index)
        let completion = await runAttempts(index, of: plan, inputs: [], lane: lane) { context in
            let job = RemoteJob(
                setup: setup, attempt: context.attempt, inputs: inputs, key: key, components: components)
            let completion = try await remote.run(job, settings: settings, context: context)
            guard let record = completion.records.first else { throw EngineError.resultUnavailable(setup.id) }
            return StoredResult(record)
        }
        if let stored = completion.result as? StoredResult { cache.finished(index, remotely: stored) }
        return completion
    }

    /// The digests of `results` in the store, storing those not there yet (results of nodes
    /// that were not recorded: `cache: false`, not cacheable; or left out of the store).
    func stored(_ results: [RunState.Input], of plan: RunPlan, cache: RunCache) async throws -> [RemoteJob.Input] {
        var inputs: [RemoteJob.Input] = []
        for result in results {
            let recorded = cache.storedResult(of: Int(result.node))
            let digest =
                if let recorded, !recorded.isUnstored {
                    recorded.digest
                } else {
                    try await storedDigest(of: result.value, of: Int(result.node), in: plan, cache: cache)
                }
            inputs.append(RemoteJob.Input(id: plan.id(of: Int(result.node)), digest: digest))
        }
        return inputs
    }
}
