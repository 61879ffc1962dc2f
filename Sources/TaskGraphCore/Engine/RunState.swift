/// The bookkeeping of one run, free of concurrency: which nodes are ready, which ended, which
/// results are still needed, which workers wait. `RunCoordinator` keeps one behind a lock.
///
/// Memory stays bounded by the work in flight, not by the size of the graph: ready nodes that
/// continue started work go first, deepest first (see `ReadyQueue`), and roots (nodes reading
/// new data: downloads, loads) wait while `rootLimit` nodes with dependencies are ready but not
/// started, so fast producers cannot pile up results that slow consumers have not reached. A
/// result is dropped as soon as the last node needing it has started.
struct RunState {
    /// Why the run stopped handing out work.
    enum StopReason: Sendable {
        case completed
        case failFast
        case cancelled
    }

    /// A dependency's result, with the index of the node that produced it.
    typealias Input = (node: Int32, artifact: any Artifact)

    /// A node handed to a worker, with its dependencies' results.
    struct Assignment {
        let node: Int
        /// When it was handed out (nanoseconds since the run started).
        let start: Int64
        /// The dependencies' results, with the index of the node that produced each.
        let results: [Input]
    }

    /// What finishing a node changed.
    struct Finish {
        /// Nodes skipped because this one failed.
        var skipped: [Int] = []
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

    let plan: RunPlan
    /// Roots wait while this many nodes with dependencies are ready but not started.
    let rootLimit: Int
    let clock: RunClock
    /// Per-node scheduling state (see `NodeProgress`).
    private var progress: [NodeProgress]
    private var ready: [ReadyQueue]
    /// Nodes with dependencies that are ready but not started, in every pool.
    private var readyContinuing = 0
    /// How each node went; written by workers outside the lock (see `NodeHistories`).
    let histories: NodeHistories
    private var finishedCount = 0
    private var waiters: [[Waiter]]
    private(set) var stopReason: StopReason?
    /// The task waiting for the run to stop.
    var stopWaiter: CheckedContinuation<StopReason, Never>?

    /// The state before anything ran, where `poolOfNode[i]` indexes one of `poolCount` pools,
    /// which have `laneCount` workers in all.
    init(plan: RunPlan, poolOfNode: [Int32], poolCount: Int, laneCount: Int, clock: RunClock) {
        precondition(poolCount <= Int(UInt16.max) + 1, "Too many pools")
        self.plan = plan
        self.clock = clock
        rootLimit = max(4, 2 * laneCount)
        let count = plan.count
        progress = (0..<count).map { node in
            NodeProgress(
                remainingDependencies: Int32(plan.dependencies.successorPositions(of: node).count),
                pendingConsumers: Int32(plan.dependents.successorPositions(of: node).count),
                pool: UInt16(poolOfNode[node]))
        }
        ready = Array(repeating: ReadyQueue(), count: poolCount)
        histories = NodeHistories(count: count)
        waiters = Array(repeating: [], count: poolCount)
        for node in 0..<count where progress[node].remainingDependencies == 0 {
            ready[Int(poolOfNode[node])].appendRoot(node)
        }
        if count == 0 { stopReason = .completed }
    }

    /// The next node for a worker of `pool`, if one may start now (`now`: nanoseconds since the
    /// run started, recorded as its start).
    mutating func take(from pool: Int, now: Int64) -> Take {
        if stopReason != nil { return .stopped }
        if let node = ready[pool].popContinuing() {
            readyContinuing -= 1
            return .assigned(assign(node, now: now))
        }
        guard readyContinuing < rootLimit, let root = ready[pool].popRoot() else { return .empty }
        return .assigned(assign(root, now: now))
    }

    /// Where node `0`'s `NodeProgress` lives and the distance between nodes, for prefetch hints
    /// (see `RunCoordinator.prefetch`). The storage never moves: the array is never resized and
    /// only this state holds it.
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
    /// in `histories`) and releases or skips its dependents.
    mutating func finish(
        _ node: Int, outcome: NodeOutcome, result: (any Artifact)?, now: Int64, failFast: Bool,
        tracksReadiness: Bool, wakeUps: inout WakeUps
    ) -> Finish {
        progress[node].hasEnded = true
        finishedCount += 1
        var finish = Finish()
        let dependents = plan.dependents.successorPositions(of: node)
        if outcome.kind.isSuccess {
            if progress[node].pendingConsumers > 0 || dependents.isEmpty { progress[node].result = result }
            // The finishing worker takes the first node that becomes ready in its own pool
            // itself (no hand-off, no task switch); waiting workers get the rest.
            var keepForSelf = true
            let depth = progress[node].depth + 1
            let pool = progress[node].pool
            for position in dependents {
                let dependent = plan.dependents.successor(at: position)
                let isReady = progress[dependent].dependencyFinished(depth: depth)
                guard isReady else { continue }
                if tracksReadiness { finish.readied.append(dependent) }
                let samePool = progress[dependent].pool == pool
                enqueue(dependent, handOff: !(keepForSelf && samePool), now: now, wakeUps: &wakeUps)
                if samePool { keepForSelf = false }
            }
        } else if outcome.isFailure {
            finish.skipped = skipDependents(of: node)
            if failFast { stop(.failFast, wakeUps: &wakeUps) }
        }
        if finishedCount == plan.count { stop(.completed, wakeUps: &wakeUps) }
        return finish
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

    /// Hands waiting roots to idle workers once fewer than `rootLimit` nodes with dependencies
    /// are waiting.
    mutating func wakeRootWaiters(now: Int64, wakeUps: inout WakeUps) {
        guard stopReason == nil else { return }
        for pool in waiters.indices {
            while readyContinuing < rootLimit, !waiters[pool].isEmpty, let root = ready[pool].popRoot() {
                wakeUps.append((waiters[pool].removeLast(), assign(root, now: now)))
            }
        }
    }

    /// The report of the run so far; nodes that never ran are `.notStarted`.
    func report(wasCancelled: Bool) -> RunReport {
        var finalResults: [String: any Artifact] = [:]
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
                endTime: RunClock.duration(nanoseconds: history.end), summary: history.summary)
        }
        return RunReport(
            nodes: records, wallTime: clock.elapsed, wasCancelled: wasCancelled,
            finalResults: finalResults)
    }

    private mutating func enqueue(_ node: Int, handOff: Bool, now: Int64, wakeUps: inout WakeUps) {
        let pool = Int(progress[node].pool)
        if handOff, stopReason == nil, !waiters[pool].isEmpty {
            wakeUps.append((waiters[pool].removeLast(), assign(node, now: now)))
        } else {
            ready[pool].appendContinuing(node, depth: progress[node].depth)
            readyContinuing += 1
        }
    }

    private mutating func skipDependents(of failed: Int) -> [Int] {
        let cause = plan.id(of: failed)
        var skipped: [Int] = []
        var stack = plan.dependents.successors(of: failed).map(Int.init)
        while let node = stack.popLast() {
            guard !progress[node].hasEnded else { continue }
            progress[node].hasEnded = true
            histories.record(NodeHistory(outcome: .skipped(because: cause)), for: node)
            finishedCount += 1
            skipped.append(node)
            for dependency in plan.dependencies.successors(of: node) { _ = takeResult(of: Int(dependency)) }
            stack.append(contentsOf: plan.dependents.successors(of: node).map(Int.init))
        }
        return skipped
    }

    /// Starts `node` at `now`, gathering its dependencies' results. The last consumer of a
    /// result takes it over instead of sharing it, so the lock is held for as little memory
    /// traffic as possible.
    private mutating func assign(_ node: Int, now: Int64) -> Assignment {
        let dependencies = plan.dependencies.successorPositions(of: node)
        var results: [Input] = []
        if !dependencies.isEmpty { results.reserveCapacity(dependencies.count) }
        for position in dependencies {
            let dependency = plan.dependencies.successor(at: position)
            if let result = takeResult(of: dependency) { results.append((Int32(dependency), result)) }
        }
        return Assignment(node: node, start: now, results: results)
    }

    /// One consumer of `node` starts: returns the result it gets, which no longer stays here
    /// once no consumer is left.
    private mutating func takeResult(of node: Int) -> (any Artifact)? {
        progress[node].pendingConsumers -= 1
        guard progress[node].pendingConsumers == 0 else { return progress[node].result }
        return progress[node].result.take()
    }
}
