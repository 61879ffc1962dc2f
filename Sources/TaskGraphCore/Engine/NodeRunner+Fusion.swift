extension NodeRunner {
    /// Runs `node`, at `position` of a fused `chain`, through `remote` (docs/cluster.md,
    /// "Fusion"). Its first attempt takes the completion an earlier node's job brought back for
    /// it; otherwise one job runs the chain from the first node whose input is in the store to
    /// the tail, and keeps the completions of the nodes after this one for them. Records the
    /// result under `key`: the tail's is in the store, an intermediate's record names it by
    /// digest only (`StoredResult` as its blob).
    func runFused(
        _ index: Int, in chain: [Int], at position: Int, of plan: RunPlan, results: [RunState.Input],
        key: ContentDigest?,
        on remote: any RemoteExecutor, fusion: FusedRuns, lane: Int, cache: RunCache
    ) async -> Completion {
        var start = position
        while start > 0, fusion.isUnstored(chain[start - 1]) { start -= 1 }
        let steps = Array(chain[start...])
        let inputs: [RemoteJob.Input]
        do {
            inputs =
                try await start == position
                ? stored(results, of: plan, cache: cache) : storedInputs(of: steps[0], plan, cache)
        } catch {
            return .ended(by: error, attempts: 1)
        }
        let setups = steps.map { node in plan.read(node) { $0.pointee.setup! } }
        let settings = plan.read(steps[0]) { $0.pointee.settings }
        let offset = position - start
        let head = plan.id(of: chain[0])
        let attempt = FusedAttempt()
        let completion = await runAttempts(index, of: plan, inputs: [], lane: lane) { context in
            if context.attempt == 1, let waiting = fusion.take(index) {
                if let status = waiting.status {
                    context.report(status, message: "job \(status.job) \(status.state), fused with \(head)")
                }
                return try Self.result(of: waiting.completion, into: attempt)
            }
            let job = RemoteJob(
                setup: setups[0], attempt: context.attempt, inputs: inputs, key: nil, components: nil,
                chain: Array(setups.dropFirst()))
            let completion = try await remote.run(job, settings: settings, context: attempt.watching(context))
            guard case .fused(let completions) = completion, offset < completions.count else {
                throw EngineError.resultUnavailable(plan.id(of: steps[min(offset, completion.records.count)]))
            }
            for step in completions.indices.dropFirst(offset + 1) {
                // Its wait was the operations' before it: it starts when they end.
                var status = attempt.status
                status?.queueWait = .zero
                status?.runTime = completions[step].records.first.map { .seconds($0.seconds) }
                fusion.keep(FusedRuns.Waiting(completion: completions[step], status: status), for: steps[step])
            }
            return try Self.result(of: completions[offset], into: attempt)
        }
        if completion.outcome == .succeeded, let record = attempt.record {
            let isTail = position == chain.count - 1
            if !isTail { fusion.markUnstored(index) }
            if let warning = await cache.finished(index, fused: record, key: key, isTail: isTail) {
                emit(.warning(node: index, message: warning))
            }
        }
        return completion
    }

    /// The stored results `node` needs (the head of a chain's job that starts before the node
    /// that runs it).
    private func storedInputs(of node: Int, _ plan: RunPlan, _ cache: RunCache) async throws -> [RemoteJob.Input] {
        var inputs: [RemoteJob.Input] = []
        for dependency in plan.dependencies.successors(of: node).map(Int.init) {
            guard let stored = cache.storedResult(of: dependency) else {
                throw EngineError.resultUnavailable(plan.id(of: dependency))
            }
            let digest = try await storedDigest(of: stored, of: dependency, in: plan, cache: cache)
            inputs.append(RemoteJob.Input(id: plan.id(of: dependency), digest: digest))
        }
        return inputs
    }

    /// The result of one operation of a chain's job, its record kept in `attempt`; or its
    /// failure thrown.
    private static func result(of completion: RemoteCompletion, into attempt: FusedAttempt) throws -> StoredResult {
        if let (_, message) = completion.failure { throw FusedStepFailure(message: message) }
        guard let record = completion.records.first else { throw FusedStepFailure(message: "no result") }
        attempt.record = record
        return StoredResult(record)
    }
}

/// The failure of an operation in a chain's job, as its worker described it.
private struct FusedStepFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
