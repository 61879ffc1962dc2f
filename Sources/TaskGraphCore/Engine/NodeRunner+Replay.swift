extension NodeRunner {
    /// With programs' lines streamed (`RunResources.streamedOutput`, `run --logs`): reports the
    /// lines a reused `exec` (`result` of instance `id`, read from the store when it is a placeholder) wrote when
    /// it ran, marked replayed, as Turborepo replays a cache hit's logs. A result that cannot be
    /// read shows nothing: the lines are for people, the run does not depend on them.
    func replayOutput(of index: Int, id: String, result: any OperationResult, store: any ResultStore) async {
        guard let events, let streamed = resources.streamedOutput else { return }
        var output = result as? ProcessOutput
        if output == nil, let stored = result as? StoredResult, stored.resultKind == ProcessOutput.kind {
            output = try? await store.loadResult(stored) as? ProcessOutput
        }
        guard let output else { return }
        let clock = clock
        OutputLineSplitter.replay(output, reportsStandardOutput: streamed.streamsStandardOutput(of: id)) { line in
            events.receive(
                EngineEvent(elapsed: clock.elapsed, kind: .nodeProgress(node: index, ProgressUpdate(output: line))))
        }
    }

    /// `replayOutput` for every node settled before the run, reading up to 16 results at once.
    func replayOutput(ofSettled settled: [(node: Int, stored: StoredResult)], of plan: RunPlan, store: any ResultStore)
        async
    {
        await withTaskGroup(of: Void.self) { group in
            for (position, (node, stored)) in settled.enumerated() {
                if position >= 16 { await group.next() }
                group.addTask { await replayOutput(of: node, id: plan.id(of: node), result: stored, store: store) }
            }
        }
    }
}
