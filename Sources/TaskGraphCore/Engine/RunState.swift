/// The bookkeeping of one run, free of concurrency: which nodes are ready, which ended, which
/// results are still needed, which workers wait. `RunCoordinator` keeps one behind a lock.
///
/// Memory stays bounded by the work in flight, not by the size of the graph: ready nodes that
/// continue started work go first, deepest first (see `ReadyQueue`), and roots (nodes reading
/// new data: downloads, loads) wait while `rootLimit` nodes with dependencies are ready but not
/// started, so fast producers cannot pile up results that slow consumers have not reached. A
/// result is dropped as soon as the last node needing it has started. Priorities order the ready
/// nodes of a pool (see `ReadyQueue`), exclusive nodes run alone in their scope (see
/// `ExclusiveScopes`), and a paused run starts nothing.
struct RunState {
    /// Why the run stopped handing out work.
    enum StopReason: Sendable {
        case completed
        case failFast
        case cancelled
    }

    /// A dependency's result, with the index of the node that produced it.
    typealias Input = (node: Int32, value: any OperationResult)

    /// A node handed to a worker, with its dependencies' results.
    struct Assignment {
        let node: Int
        /// When it was handed out (nanoseconds since the run started).
        let start: Int64
        /// The dependencies' results, with the index of the node that produced each.
        let results: [Input]
        /// The `planGeneration` the node was handed out in: the worker's plan must be as new.
        let planGeneration: Int
    }

    /// What finishing a node changed.
    struct Finish {
        /// Nodes that ended without running because of this one (skipped or bypassed), with
        /// their outcomes.
        var ended: [(node: Int, outcome: NodeOutcome)] = []
        /// Nodes that became ready (only collected when `tracksReadiness`).
        var readied: [Int] = []
        /// The finishing worker's next node, if one was ready in its pool.
        var next: Assignment?
    }

    /// What `take` found.
    enum Take {
        case assigned(Assignment)
        case stopped
        case empty
    }

    typealias Waiter = CheckedContinuation<Assignment?, Never>
    /// Waiting workers to resume once the lock is released, with what to resume them with.
    typealias WakeUps = [(Waiter, Assignment?)]

    /// The nodes being run; nodes added during the run (`add`) are appended.
    var plan: RunPlan
    /// How often nodes were added: a worker holding an older plan takes the current one.
    var planGeneration = 0
    /// Roots wait while this many nodes with dependencies are ready but not started.
    let rootLimit: Int
    let clock: RunClock
    /// Per-node scheduling state (see `NodeProgress`).
    var progress: [NodeProgress]
    private var ready: [ReadyQueue]
    /// Nodes with dependencies that are ready but not started, in every pool.
    private var readyContinuing = 0
    /// What runs, for exclusive nodes.
    private var scopes: ExclusiveScopes
    /// Whether the run is paused: nothing starts.
    private(set) var isPaused = false
    /// How each node went; written by workers outside the lock (see `NodeHistories`).
    let histories: NodeHistories
    var finishedCount = 0
    private var waiters: [[Waiter]]
    private(set) var stopReason: StopReason?
    /// The task waiting for the run to stop.
    var stopWaiter: CheckedContinuation<StopReason, Never>?
    /// For a run that accepts nodes while it runs (`RunHandle`), what `add` and `cancel` need.
    var growth: Growth?

    /// The state before anything ran, where `poolOfNode[i]` indexes one of `poolCount` pools,
    /// which have `laneCount` workers in all. The `settled` nodes have ended before the run,
    /// reused from the store (`RunCache.settledAtStart`): the nodes that need only them are
    /// ready from the start.
    init(
        plan: RunPlan, poolOfNode: [Int32], poolCount: Int, laneCount: Int, clock: RunClock,
        settled: [(node: Int, stored: StoredResult)] = []
    ) {
        precondition(poolCount <= Int(UInt16.max) + 1, "Too many pools")
        self.plan = plan
        self.clock = clock
        rootLimit = max(4, 2 * laneCount)
        let count = plan.count
        progress = (0..<count).map { node in
            let settings = plan.read(node) { $0.pointee.settings }
            return NodeProgress(
                remainingDependencies: Int32(plan.dependencies.successorPositions(of: node).count),
                pendingConsumers: Int32(plan.dependents.successorPositions(of: node).count),
                priority: Int32(clamping: settings.priority), pool: UInt16(poolOfNode[node]),
                exclusive: settings.exclusive, rule: settings.when)
        }
        ready = Array(repeating: ReadyQueue(), count: poolCount)
        scopes = ExclusiveScopes(poolCount: poolCount)
        histories = NodeHistories(count: count)
        waiters = Array(repeating: [], count: poolCount)
        if !settled.isEmpty { settle(settled) }
        for node in 0..<count where progress[node].remainingDependencies == 0 && !progress[node].hasEnded {
            if plan.dependencies.successorPositions(of: node).isEmpty {
                ready[Int(poolOfNode[node])].appendRoot(node, priority: progress[node].priority)
            } else {
                enqueue(node)
            }
        }
        if finishedCount == count { stopReason = .completed }
    }

    /// Ends each of the `settled` nodes as reused before the run, in any order: its dependents
    /// count it as ended, and its result stays for those that are not settled.
    private mutating func settle(_ settled: [(node: Int, stored: StoredResult)]) {
        for (node, stored) in settled {
            progress[node].hasEnded = true
            finishedCount += 1
            histories.record(NodeHistory(outcome: .cached, start: 0, end: 0, summary: stored.summary), for: node)
            for dependency in plan.dependencies.successors(of: node) { _ = takeResult(of: Int(dependency)) }
            let depth = progress[node].depth + 1
            for position in plan.dependents.successorPositions(of: node) {
                // Settled nodes have no dependent that runs only on failure: it waits or is ready.
                _ = progress[plan.dependents.successor(at: position)].dependencyEnded(.succeeded, depth: depth)
            }
        }
        for (node, stored) in settled {
            if progress[node].pendingConsumers > 0 || plan.dependents.successorPositions(of: node).isEmpty {
                progress[node].result = stored
            }
        }
    }

    /// The next node for a worker of `pool`, if one may start now (`now`: nanoseconds since the
    /// run started, recorded as its start).
    mutating func take(from pool: Int, now: Int64) -> Take {
        if stopReason != nil { return .stopped }
        if isPaused { return .empty }
        if let barrier = scopes.releaseHeld(in: pool) { return .assigned(assign(barrier, now: now)) }
        var popped: (node: Int, isRoot: Bool)?
        repeat {
            guard scopes.admitsNewWork(in: pool),
                let next = ready[pool].pop(allowingRoots: readyContinuing < rootLimit)
            else { return .empty }
            if !next.isRoot { readyContinuing -= 1 }
            // A ready node cancelled (`cancel`) before it started has ended: it stays queued.
            popped = progress[next.node].hasEnded ? nil : next
        } while popped == nil
        let node = popped!.node
        let exclusive = progress[node].exclusive
        guard exclusive == .shared || scopes.admit(barrier: node, scope: exclusive, in: pool) else { return .empty }
        return .assigned(assign(node, now: now))
    }

    /// Where node `0`'s `NodeProgress` lives and the distance between nodes, for prefetch hints
    /// (see `RunCoordinator.prefetch`). The storage moves only when nodes are added (`add`),
    /// which reads this again; only this state holds it.
    var progressLayout: (base: UInt, stride: UInt) {
        progress.withUnsafeBufferPointer { buffer in
            (UInt(bitPattern: buffer.baseAddress), UInt(MemoryLayout<NodeProgress>.stride))
        }
    }

    /// Parks a worker of `pool` until a node is handed to it.
    mutating func wait(_ waiter: Waiter, in pool: Int) {
        waiters[pool].append(waiter)
    }

    /// Records that `node` ended at `now` with `outcome` and `result` (its history is already
    /// in `histories`) and releases, skips or bypasses its dependents.
    mutating func finish(
        _ node: Int, outcome: NodeOutcome, result: (any OperationResult)?, now: Int64, failFast: Bool,
        tracksReadiness: Bool, wakeUps: inout WakeUps
    ) -> Finish {
        progress[node].hasEnded = true
        finishedCount += 1
        scopes.ended(in: Int(progress[node].pool), exclusive: progress[node].exclusive)
        var finish = Finish()
        if growth?.adders.contains(node) == true {
            for dependency in plan.dependencies.successors(of: node) { _ = takeResult(of: Int(dependency)) }
        }
        if outcome.kind.isSuccess {
            if progress[node].pendingConsumers > 0 || plan.dependents.successorPositions(of: node).isEmpty {
                progress[node].result = result
            }
            releaseDependents(of: node, ending: .succeeded, tracksReadiness: tracksReadiness, into: &finish)
        } else if outcome.isFailure {
            releaseDependents(of: node, ending: .failed, tracksReadiness: tracksReadiness, into: &finish)
            if failFast { stop(.failFast, wakeUps: &wakeUps) }
        }
        if growth?.tracksRunning == true { endCancelledDependents(ofFinished: node, into: &finish) }
        if finishedCount == plan.count { stop(.completed, wakeUps: &wakeUps) }
        return finish
    }

    /// Pauses or resumes handing out work; resuming hands ready nodes to waiting workers.
    mutating func setPaused(_ paused: Bool, now: Int64, wakeUps: inout WakeUps) {
        isPaused = paused
        wakeWaiters(now: now, wakeUps: &wakeUps)
    }

    /// Stops handing out work; the first reason wins. Every waiting worker is woken with nil.
    mutating func stop(_ reason: StopReason, wakeUps: inout WakeUps) {
        guard stopReason == nil else { return }
        stopReason = reason
        for pool in waiters.indices {
            wakeUps += waiters[pool].map { ($0, nil) }
            waiters[pool].removeAll()
        }
    }

    /// Hands every node that may start now to an idle worker of its pool.
    mutating func wakeWaiters(now: Int64, wakeUps: inout WakeUps) {
        guard stopReason == nil, !isPaused else { return }
        for pool in waiters.indices {
            while !waiters[pool].isEmpty, case .assigned(let assignment) = take(from: pool, now: now) {
                wakeUps.append((waiters[pool].removeLast(), assignment))
            }
        }
    }

    /// The report of the run so far; nodes that never ran are `.notStarted`.
    func report(wasCancelled: Bool) -> RunReport {
        var finalResults: [String: any OperationResult] = [:]
        let sinks = (0..<plan.count).filter { plan.dependents.successorPositions(of: $0).isEmpty }
        finalResults.reserveCapacity(sinks.count)
        for sink in sinks {
            if let result = progress[sink].result { finalResults[plan.id(of: sink)] = result }
        }
        let records = (0..<plan.count).map { index in
            let history = histories[index]
            return RunReport.NodeRecord(
                id: plan.id(of: index), type: plan.read(index) { $0.pointee.type },
                outcome: history.outcome ?? .notStarted, attempts: history.attempts,
                startTime: RunClock.duration(nanoseconds: history.start),
                endTime: RunClock.duration(nanoseconds: history.end), summary: history.summary,
                error: history.error)
        }
        var report = RunReport(
            nodes: records, wallTime: clock.elapsed, wasCancelled: wasCancelled,
            finalResults: finalResults)
        if planGeneration > 0 { report.addedNodes = Array(plan.nodes[histories.initialCount...]) }
        return report
    }

    /// Queues `node`, which needs nothing, in its pool.
    mutating func enqueueRoot(_ node: Int) {
        ready[Int(progress[node].pool)].appendRoot(node, priority: progress[node].priority)
    }

    /// Queues `node`, whose dependencies have ended as its rule requires, in its pool.
    mutating func enqueue(_ node: Int) {
        ready[Int(progress[node].pool)].appendContinuing(
            node, depth: progress[node].depth, priority: progress[node].priority)
        readyContinuing += 1
    }

    /// Starts `node` at `now`, gathering its dependencies' results. The last consumer of a
    /// result takes it over instead of sharing it, so the lock is held for as little memory
    /// traffic as possible.
    private mutating func assign(_ node: Int, now: Int64) -> Assignment {
        if growth?.tracksRunning == true { growth!.running.insert(node) }
        scopes.started(in: Int(progress[node].pool), exclusive: progress[node].exclusive)
        let dependencies = plan.dependencies.successorPositions(of: node)
        var results: [Input] = []
        if !dependencies.isEmpty { results.reserveCapacity(dependencies.count) }
        // A node that adds nodes shares its inputs and lets them go when it ends (`Growth.adders`).
        let holds = growth?.adders.contains(node) == true
        for position in dependencies {
            let dependency = plan.dependencies.successor(at: position)
            let result = holds ? progress[dependency].result : takeResult(of: dependency)
            if let result { results.append((Int32(dependency), result)) }
        }
        return Assignment(node: node, start: now, results: results, planGeneration: planGeneration)
    }

    /// One consumer of `node` starts: returns the result it gets, which no longer stays here
    /// once no consumer is left.
    mutating func takeResult(of node: Int) -> (any OperationResult)? {
        progress[node].pendingConsumers -= 1
        guard progress[node].pendingConsumers == 0 else { return progress[node].result }
        return progress[node].result.take()
    }
}
