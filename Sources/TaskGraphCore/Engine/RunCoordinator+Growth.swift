import Synchronization

/// Adding nodes to the run and cancelling single nodes, for `RunHandle`.
extension RunCoordinator {
    /// Adds `nodes`, each needing nodes of the run or earlier nodes of the batch by id.
    func add(_ nodes: [RunHandle.Node]) throws(RunHandleError) -> (RunState.Addition, [ExecutionGraph.Node]) {
        try grow { state throws(RunHandleError) in
            var batch: [String: Int] = [:]
            let first = state.plan.count
            var resolved: [ExecutionGraph.Node] = []
            resolved.reserveCapacity(nodes.count)
            for (offset, node) in nodes.enumerated() {
                var dependencies: [Int] = []
                for id in node.needs {
                    guard let index = batch[id] ?? state.index(of: id) else { throw .unknownDependency(of: node.id) }
                    dependencies.append(index)
                }
                batch[node.id] = first + offset
                resolved.append(ExecutionGraph.Node(
                    id: node.id, type: node.type, action: node.action, dependencies: dependencies,
                    settings: node.settings, setup: nil, location: nil))
            }
            return resolved
        }
    }

    /// Adds `nodes`, whose dependencies are indices in the grown plan, and makes the nodes of
    /// `extraNeeds` also need some of them (`RunState.add`).
    func add(
        _ nodes: [ExecutionGraph.Node], extraNeeds: [(node: Int, needs: [Int])]
    ) throws(RunHandleError) -> RunState.Addition {
        try grow(extraNeeds: extraNeeds) { _ in nodes }.0
    }

    private func grow(
        extraNeeds: [(node: Int, needs: [Int])] = [],
        _ makeNodes: (inout RunState) throws(RunHandleError) -> [ExecutionGraph.Node]
    ) throws(RunHandleError) -> (RunState.Addition, [ExecutionGraph.Node]) {
        let now = clock.nanoseconds
        let result = update { state, wakeUps -> Result<(RunState.Addition, [ExecutionGraph.Node]), RunHandleError> in
            Result { () throws(RunHandleError) in
                let nodes = try makeNodes(&state)
                let addition = try state.add(nodes, extraNeeds: extraNeeds, wakeUps: &wakeUps)
                progressBase.store(state.progressLayout.base, ordering: .relaxed)
                state.wakeWaiters(now: now, wakeUps: &wakeUps)
                return (addition, nodes)
            }
        }
        return try result.get()
    }

    /// Cancels the node `id` and what needs it (`RunState.cancel`).
    /// - Returns: the nodes that ended at once, or nil if the run has no node `id`.
    func cancel(_ id: String) -> [Int]? {
        let (ended, canceller) = update { state, wakeUps -> ([Int]?, (@Sendable () -> Void)?) in
            guard let node = state.index(of: id) else { return (nil, nil) }
            let cancelled = state.cancel(node, wakeUps: &wakeUps)
            return (cancelled.ended, cancelled.canceller)
        }
        canceller?()
        return ended
    }

    /// Runs `body` for `node` in a task of its own, which `cancel` can cancel alone.
    func runCancellable<Value>(_ node: Int, _ body: sending @escaping () async -> Value) async -> Value {
        let task = Task { Handover(value: await body()) }
        let registered = state.withLock { $0.register(canceller: { task.cancel() }, for: node) }
        if !registered { task.cancel() }
        return await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }.value
    }
}

/// A value made by a node's own task and read by the worker awaiting that task.
///
/// Safe to share (`@unchecked Sendable`): the task that makes it never touches it again, and
/// only the one worker awaiting the task reads it, after the task ended; it is never used in
/// two places at once.
private struct Handover<Value>: @unchecked Sendable {
    let value: Value
}
