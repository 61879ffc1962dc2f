/// Adding nodes to a run under way and cancelling single nodes (`RunHandle`).
extension RunState {
    /// What a run that accepts nodes while it runs keeps besides the rest of its state.
    struct Growth {
        /// The pool index of each named pool; nodes of other pools run in the default pool.
        let poolIndexByName: [String: Int32]
        /// Node indices by id, for `add` and `cancel` by id; made on first use.
        var indexByID: [String: Int]?
        /// Whether `running` is kept, so that single nodes can be cancelled (`cancel`).
        let tracksRunning: Bool
        /// The nodes handed to a worker that have not finished, when `tracksRunning`.
        var running: Set<Int> = []
        /// Running nodes whose cancellation was asked: their dependents end as cancelled.
        var cancelRequested: Set<Int> = []
        /// How to cancel each running node, registered by its worker.
        var cancellers: [Int: @Sendable () -> Void] = [:]
        /// Tells the run's cache about added nodes (the plan, the first added), under the lock,
        /// before any of them can start.
        let grown: (@Sendable (RunPlan, Int) -> Void)?
        /// The nodes that add nodes (a fan-out's expansion): they hold the results of what they
        /// need until they end, not only until they start, so that the nodes they add can still
        /// need them (a template's plain operations, whose other consumers may all have started).
        let adders: Set<Int>

        init(
            poolIndexByName: [String: Int32], tracksRunning: Bool, adders: Set<Int> = [],
            grown: (@Sendable (RunPlan, Int) -> Void)?
        ) {
            self.poolIndexByName = poolIndexByName
            self.tracksRunning = tracksRunning
            self.adders = adders
            self.grown = grown
        }
    }

    /// What `add` changed, for events.
    struct Addition {
        /// The index of the first added node.
        let first: Int
        /// Nodes that ended at once (they need a node that failed), with their outcomes.
        var ended: [(node: Int, outcome: NodeOutcome)] = []
        /// Added nodes that are ready to start.
        var readied: [Int] = []
    }

    /// The index of the node with `id`, if the run has one.
    mutating func index(of id: String) -> Int? {
        guard growth != nil else { return nil }
        if growth!.indexByID == nil {
            var indices = [String: Int](minimumCapacity: plan.count)
            for node in 0..<plan.count { indices[plan.id(of: node)] = node }
            growth!.indexByID = indices
        }
        return growth!.indexByID![id]
    }

    /// Adds `nodes` (their dependencies are indices in the grown plan: existing nodes, or added
    /// ones before them) and makes each node of `extraNeeds`, which must not be ready yet, also
    /// need the added nodes given with it.
    /// - Throws: `RunHandleError` when the run has stopped, an id is taken, a dependency is
    ///   unknown, a node of `extraNeeds` is ready or has started, or a needed node's result is
    ///   gone.
    mutating func add(
        _ nodes: [ExecutionGraph.Node], extraNeeds: [(node: Int, needs: [Int])], wakeUps: inout WakeUps
    ) throws(RunHandleError) -> Addition {
        guard stopReason == nil, let growth else { throw .runEnded }
        let first = plan.count
        var newIDs = Set<String>(minimumCapacity: nodes.count)
        for (offset, node) in nodes.enumerated() {
            guard index(of: node.id) == nil, newIDs.insert(node.id).inserted else { throw .duplicateID(node.id) }
            for dependency in node.dependencies {
                guard dependency >= 0, dependency < first + offset else { throw .unknownDependency(of: node.id) }
                guard dependency < first, progress[dependency].hasEnded else { continue }
                if ending(of: dependency) == .succeeded, progress[dependency].result == nil {
                    throw .resultUnavailable(plan.id(of: dependency))
                }
            }
        }
        for (node, needs) in extraNeeds {
            guard progress[node].remainingDependencies > 0, !progress[node].hasEnded else {
                throw .alreadyReady(plan.id(of: node))
            }
            guard needs.allSatisfy({ $0 >= first && $0 < first + nodes.count }) else {
                throw .unknownDependency(of: plan.id(of: node))
            }
        }
        plan = plan.adding(nodes, extraNeeds: extraNeeds)
        planGeneration += 1
        histories.grow(to: plan.count)
        growth.grown?(plan, first)
        self.growth!.indexByID!.reserveCapacity(plan.count)
        progress.reserveCapacity(plan.count)
        for (offset, node) in nodes.enumerated() {
            self.growth!.indexByID![node.id] = first + offset
            let pool = node.settings.pool.flatMap { growth.poolIndexByName[$0] } ?? 0
            progress.append(
                NodeProgress(
                    remainingDependencies: Int32(node.dependencies.count),
                    pendingConsumers: Int32(plan.dependents.successorPositions(of: first + offset).count),
                    priority: Int32(clamping: node.settings.priority), pool: UInt16(pool),
                    exclusive: node.settings.exclusive, rule: node.settings.when))
            for dependency in node.dependencies where dependency < first { progress[dependency].pendingConsumers += 1 }
        }
        for (node, needs) in extraNeeds { progress[node].remainingDependencies += Int32(needs.count) }
        var addition = Addition(first: first)
        for node in first..<plan.count { admit(node, first: first, into: &addition) }
        if finishedCount == plan.count { stop(.completed, wakeUps: &wakeUps) }
        return addition
    }

    /// Queues the added `node` if what it needs has ended, or ends it if that cannot be met.
    private mutating func admit(_ node: Int, first: Int, into addition: inout Addition) {
        let dependencies = plan.dependencies.successorPositions(of: node)
        if dependencies.isEmpty {
            enqueueRoot(node)
            addition.readied.append(node)
            return
        }
        for position in dependencies {
            let dependency = plan.dependencies.successor(at: position)
            guard dependency < first, progress[dependency].hasEnded, !progress[node].hasEnded else { continue }
            var finish = Finish()
            let ending = ending(of: dependency)
            switch progress[node].dependencyEnded(ending, depth: progress[dependency].depth + 1) {
            case .waiting:
                continue
            case .ready:
                enqueue(node)
                addition.readied.append(node)
            case .skip:
                let cause = plan.id(of: dependency)
                endWithoutRunning(node, .skipped(because: cause), into: &finish)
                releaseDependents(of: node, ending: .failed, tracksReadiness: true, into: &finish)
            case .bypass:
                endWithoutRunning(node, .bypassed("'\(plan.id(of: dependency))' did not run"), into: &finish)
                releaseDependents(of: node, ending: .bypassed, tracksReadiness: true, into: &finish)
            }
            addition.ended += finish.ended
            addition.readied += finish.readied
        }
    }

    /// How the ended `node` counts for the nodes that need it.
    private func ending(of node: Int) -> NodeProgress.Ending {
        switch histories[node].outcome {
        case .succeeded?, .cached?: .succeeded
        case .bypassed?: .bypassed
        default: .failed
        }
    }

    /// Cancels `node` and every node that needs it, directly or not: those that have not
    /// started end now as cancelled; a running one is asked to stop (the returned canceller),
    /// and what needs it ends as cancelled when it finishes.
    mutating func cancel(_ node: Int, wakeUps: inout WakeUps) -> (ended: [Int], canceller: (@Sendable () -> Void)?) {
        guard growth?.tracksRunning == true, !progress[node].hasEnded else { return ([], nil) }
        if growth!.running.contains(node) {
            growth!.cancelRequested.insert(node)
            return ([], growth!.cancellers[node])
        }
        var finish = Finish()
        endCancelled(node, into: &finish)
        endCancelledDependents(of: node, into: &finish)
        if finishedCount == plan.count { stop(.completed, wakeUps: &wakeUps) }
        return (finish.ended.map(\.node), nil)
    }

    /// Registers how to cancel the running `node`; returns false if its cancellation was
    /// already asked (the caller cancels it at once).
    mutating func register(canceller: @escaping @Sendable () -> Void, for node: Int) -> Bool {
        guard growth != nil else { return true }
        growth!.cancellers[node] = canceller
        return !growth!.cancelRequested.contains(node)
    }

    /// After `node` finished: forgets it was running and, if its cancellation was asked, ends
    /// what needs it as cancelled.
    mutating func endCancelledDependents(ofFinished node: Int, into finish: inout Finish) {
        growth!.running.remove(node)
        growth!.cancellers[node] = nil
        guard growth!.cancelRequested.remove(node) != nil else { return }
        endCancelledDependents(of: node, into: &finish)
    }

    private mutating func endCancelledDependents(of node: Int, into finish: inout Finish) {
        var stack = [node]
        while let ended = stack.popLast() {
            for position in plan.dependents.successorPositions(of: ended) {
                let dependent = plan.dependents.successor(at: position)
                guard !progress[dependent].hasEnded else { continue }
                endCancelled(dependent, into: &finish)
                stack.append(dependent)
            }
        }
    }

    private mutating func endCancelled(_ node: Int, into finish: inout Finish) {
        endWithoutRunning(node, .cancelled, into: &finish)
    }
}
