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

    /// A node handed to a worker, with its dependencies' results.
    struct Assignment {
        let node: Int
        let inputs: [TaskContext.Input]
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
    let poolOfNode: [Int32]
    /// Roots wait while this many nodes with dependencies are ready but not started.
    let rootLimit: Int
    let clock: RunClock
    private var remainingDependencies: [Int32]
    private var pendingConsumers: [Int32]
    private var ready: [ReadyQueue]
    /// Nodes with dependencies that are ready but not started, in every pool.
    private var readyContinuing = 0
    /// The longest chain of finished nodes leading to each node so far.
    private var depths: [Int32]
    private var outcomes: [NodeOutcome?]
    private var results: [(any Artifact)?]
    private var timings: [NodeTiming]
    private var finishedCount = 0
    private var waiters: [[Waiter]]
    private(set) var stopReason: StopReason?
    /// The task waiting for the run to stop.
    var stopWaiter: CheckedContinuation<StopReason, Never>?

    /// The state before anything ran, where `poolOfNode[i]` indexes one of `poolCount` pools,
    /// which have `laneCount` workers in all.
    init(plan: RunPlan, poolOfNode: [Int32], poolCount: Int, laneCount: Int, clock: RunClock) {
        self.plan = plan
        self.poolOfNode = poolOfNode
        self.clock = clock
        rootLimit = max(4, 2 * laneCount)
        let count = plan.count
        remainingDependencies = (0..<count).map { Int32(plan.dependencies.successors(of: $0).count) }
        pendingConsumers = (0..<count).map { Int32(plan.dependents.successors(of: $0).count) }
        ready = Array(repeating: ReadyQueue(), count: poolCount)
        depths = Array(repeating: 0, count: count)
        outcomes = Array(repeating: nil, count: count)
        results = Array(repeating: nil, count: count)
        timings = Array(repeating: NodeTiming(), count: count)
        waiters = Array(repeating: [], count: poolCount)
        for node in 0..<count where remainingDependencies[node] == 0 {
            ready[Int(poolOfNode[node])].appendRoot(node)
        }
        if count == 0 { stopReason = .completed }
    }

    /// The next node for a worker of `pool`, if one may start now.
    mutating func take(from pool: Int) -> Take {
        if stopReason != nil { return .stopped }
        if let node = ready[pool].popContinuing() {
            readyContinuing -= 1
            return .assigned(assign(node))
        }
        guard readyContinuing < rootLimit, let root = ready[pool].popRoot() else { return .empty }
        return .assigned(assign(root))
    }

    /// Parks a worker of `pool` until a node is handed to it.
    mutating func wait(_ waiter: Waiter, in pool: Int) {
        waiters[pool].append(waiter)
    }

    /// Records how `node` ended and releases or skips its dependents.
    mutating func finish(
        _ node: Int, outcome: NodeOutcome, result: (any Artifact)?, summary: String, attempts: Int,
        failFast: Bool, tracksReadiness: Bool, wakeUps: inout WakeUps
    ) -> Finish {
        outcomes[node] = outcome
        timings[node].end = clock.nanoseconds
        timings[node].attempts = attempts
        timings[node].summary = summary
        finishedCount += 1
        var finish = Finish()
        let dependents = plan.dependents.successors(of: node)
        if outcome == .succeeded {
            if pendingConsumers[node] > 0 || dependents.isEmpty { results[node] = result }
            // The finishing worker takes the first node that becomes ready in its own pool
            // itself (no hand-off, no task switch); waiting workers get the rest.
            var keepForSelf = true
            let depth = depths[node] + 1
            for target in dependents {
                let dependent = Int(target)
                depths[dependent] = max(depths[dependent], depth)
                remainingDependencies[dependent] -= 1
                guard remainingDependencies[dependent] == 0, outcomes[dependent] == nil else { continue }
                if tracksReadiness { finish.readied.append(dependent) }
                let samePool = poolOfNode[dependent] == poolOfNode[node]
                enqueue(dependent, handOff: !(keepForSelf && samePool), wakeUps: &wakeUps)
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
    mutating func wakeRootWaiters(wakeUps: inout WakeUps) {
        guard stopReason == nil else { return }
        for pool in waiters.indices {
            while readyContinuing < rootLimit, !waiters[pool].isEmpty, let root = ready[pool].popRoot() {
                wakeUps.append((waiters[pool].removeLast(), assign(root)))
            }
        }
    }

    /// The report of the run so far; nodes that never ran are `.notStarted`.
    func report(wasCancelled: Bool) -> RunReport {
        var finalResults: [String: any Artifact] = [:]
        let records = (0..<plan.count).map { index in
            let timing = timings[index]
            if plan.dependents.successors(of: index).isEmpty, let result = results[index] {
                finalResults[plan.ids[index]] = result
            }
            return RunReport.NodeRecord(
                id: plan.ids[index], type: plan.types[index],
                outcome: outcomes[index] ?? .notStarted, attempts: timing.attempts,
                startTime: RunClock.duration(nanoseconds: timing.start),
                endTime: RunClock.duration(nanoseconds: timing.end), summary: timing.summary)
        }
        return RunReport(
            nodes: records, wallTime: clock.elapsed, wasCancelled: wasCancelled,
            finalResults: finalResults)
    }

    private mutating func enqueue(_ node: Int, handOff: Bool, wakeUps: inout WakeUps) {
        let pool = Int(poolOfNode[node])
        if handOff, stopReason == nil, !waiters[pool].isEmpty {
            wakeUps.append((waiters[pool].removeLast(), assign(node)))
        } else {
            ready[pool].appendContinuing(node, depth: depths[node])
            readyContinuing += 1
        }
    }

    private mutating func skipDependents(of failed: Int) -> [Int] {
        let cause = plan.ids[failed]
        var skipped: [Int] = []
        var stack = plan.dependents.successors(of: failed).map(Int.init)
        while let node = stack.popLast() {
            guard outcomes[node] == nil else { continue }
            outcomes[node] = .skipped(because: cause)
            finishedCount += 1
            skipped.append(node)
            for dependency in plan.dependencies.successors(of: node) { release(Int(dependency)) }
            stack.append(contentsOf: plan.dependents.successors(of: node).map(Int.init))
        }
        return skipped
    }

    /// Starts `node`: records the time and gathers its dependencies' results.
    private mutating func assign(_ node: Int) -> Assignment {
        timings[node].start = clock.nanoseconds
        let ids = plan.ids
        let dependencies = plan.dependencies.successors(of: node)
        var inputs: [TaskContext.Input] = []
        if !dependencies.isEmpty { inputs.reserveCapacity(dependencies.count) }
        for target in dependencies {
            let dependency = Int(target)
            if let result = results[dependency] {
                inputs.append(TaskContext.Input(id: ids[dependency], artifact: result))
            }
            release(dependency)
        }
        return Assignment(node: node, inputs: inputs)
    }

    /// One consumer of `node` no longer needs its result; drop it when none is left.
    private mutating func release(_ node: Int) {
        pendingConsumers[node] -= 1
        if pendingConsumers[node] == 0 { results[node] = nil }
    }
}

/// When a node ran (nanoseconds since the run started, -1 for never), how often, and what it
/// produced, for the report.
struct NodeTiming {
    var start: Int64 = -1
    var end: Int64 = -1
    var attempts = 0
    var summary = ""
}
