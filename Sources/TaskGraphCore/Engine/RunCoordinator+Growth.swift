import Synchronization

/// Adding nodes to the run and cancelling single nodes, for `RunHandle`.
extension RunCoordinator {
    /// Adds `nodes`, each needing nodes of the run or earlier nodes of the batch by id (their
    /// `dependencies` are ignored), and makes each node of `extraNeeds` also need added nodes
    /// (`RunState.add`); a node of `extraNeeds` the run does not have is passed over (a run of
    /// part of a pipeline).
    /// - Returns: what adding changed, and the nodes as added (dependencies resolved).
    /// `announce` is called under the lock, before any added node can start (so their events
    /// follow it).
    func add(
        _ nodes: [(node: ExecutionGraph.Node, needs: [String])], extraNeeds: [(id: String, needs: [String])] = [],
        announce: (RunState.Addition, [ExecutionGraph.Node]) -> Void
    ) throws(RunHandleError) {
        let now = clock.nanoseconds
        let result = update { state, wakeUps -> Result<Void, RunHandleError> in
            Result { () throws(RunHandleError) in
                var batch = [String: Int](minimumCapacity: nodes.count)
                let first = state.plan.count
                var resolved: [ExecutionGraph.Node] = []
                resolved.reserveCapacity(nodes.count)
                for (offset, (node, needs)) in nodes.enumerated() {
                    var added = node
                    added.dependencies = []
                    for id in needs {
                        guard let index = batch[id] ?? state.index(of: id) else {
                            throw .unknownDependency(of: node.id)
                        }
                        added.dependencies.append(index)
                    }
                    batch[node.id] = first + offset
                    resolved.append(added)
                }
                var extra: [(node: Int, needs: [Int])] = []
                for (id, needs) in extraNeeds {
                    guard let node = state.index(of: id) else { continue }
                    var indices: [Int] = []
                    for need in needs {
                        guard let index = batch[need] else { throw .unknownDependency(of: id) }
                        indices.append(index)
                    }
                    extra.append((node, indices))
                }
                let addition = try state.add(resolved, extraNeeds: extra, wakeUps: &wakeUps)
                progressBase.store(state.progressLayout.base, ordering: .relaxed)
                announce(addition, resolved)
                state.wakeWaiters(now: now, wakeUps: &wakeUps)
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
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }.value
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
