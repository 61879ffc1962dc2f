import Synchronization

/// The shared bookkeeping of one run: which nodes are ready, which ended, which workers wait.
///
/// Workers call in from any thread; every access goes through one `Mutex`, never held across an
/// `await`. Continuations are resumed after the lock is released.
///
/// Memory stays bounded by the work in flight, not by the size of the graph: ready nodes that
/// continue started work go first, deepest first (see `ReadyQueue`), and roots (nodes reading
/// new data: downloads, loads) wait while `rootLimit` nodes with dependencies are ready but not
/// started, so fast producers cannot pile up results that slow consumers have not reached.
final class RunCoordinator: Sendable {
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

    private struct State {
        var remainingDependencies: [Int32]
        var pendingConsumers: [Int32]
        var ready: [ReadyQueue]
        /// Nodes with dependencies that are ready but not started, in every pool.
        var readyContinuing = 0
        /// The longest chain of finished nodes leading to each node so far.
        var depths: [Int32]
        var waiters: [[CheckedContinuation<Assignment?, Never>]]
        var outcomes: [NodeOutcome?]
        var results: [(any Artifact)?]
        var timings: [NodeTiming]
        var finishedCount = 0
        var stopReason: StopReason?
        var stopWaiter: CheckedContinuation<StopReason, Never>?
    }

    /// The nodes being run.
    let plan: RunPlan
    let poolOfNode: [Int32]
    private let failFast: Bool
    /// Whether `finish` lists the nodes that became ready (for event consumers).
    private let tracksReadiness: Bool
    private let clock: RunClock
    /// Roots wait while this many nodes with dependencies are ready but not started.
    private let rootLimit: Int
    private let state: Mutex<State>

    /// Prepares a run of `nodes`, where `poolOfNode[i]` indexes one of `poolCount` pools, which
    /// have `laneCount` workers in all.
    init(
        plan: RunPlan, poolOfNode: [Int32], poolCount: Int, laneCount: Int, failFast: Bool,
        tracksReadiness: Bool, clock: RunClock
    ) {
        self.plan = plan
        self.tracksReadiness = tracksReadiness
        self.clock = clock
        self.poolOfNode = poolOfNode
        self.failFast = failFast
        rootLimit = max(4, 2 * laneCount)
        let dependencies = plan.dependencies
        let count = plan.count
        var initial = State(
            remainingDependencies: (0..<count).map { Int32(dependencies.successors(of: $0).count) },
            pendingConsumers: (0..<count).map { Int32(plan.dependents.successors(of: $0).count) },
            ready: Array(repeating: ReadyQueue(), count: poolCount),
            depths: Array(repeating: 0, count: count),
            waiters: Array(repeating: [], count: poolCount),
            outcomes: Array(repeating: nil, count: count),
            results: Array(repeating: nil, count: count),
            timings: Array(repeating: NodeTiming(), count: count))
        for node in 0..<count where dependencies.successors(of: node).isEmpty {
            initial.ready[Int(poolOfNode[node])].appendRoot(node)
        }
        if count == 0 { initial.stopReason = .completed }
        state = Mutex(initial)
    }

    /// The next node for a worker of `pool`, waiting until one is ready; nil once the run stops.
    func nextAssignment(pool: Int) async -> Assignment? {
        var wakeUps: [(CheckedContinuation<Assignment?, Never>, Assignment?)] = []
        let taken = state.withLock { state in
            defer { wakeRootWaiters(in: &state, wakeUps: &wakeUps) }
            return Self.take(from: pool, in: &state, coordinator: self)
        }
        for (continuation, assignment) in wakeUps { continuation.resume(returning: assignment) }
        switch taken {
        case .assigned(let assignment): return assignment
        case .stopped: return nil
        case .empty: break
        }
        return await withCheckedContinuation { continuation in
            var wakeUps: [(CheckedContinuation<Assignment?, Never>, Assignment?)] = []
            let taken = state.withLock { state in
                let taken = Self.take(from: pool, in: &state, coordinator: self)
                if case .empty = taken { state.waiters[pool].append(continuation) }
                wakeRootWaiters(in: &state, wakeUps: &wakeUps)
                return taken
            }
            for (continuation, assignment) in wakeUps { continuation.resume(returning: assignment) }
            switch taken {
            case .assigned(let assignment): continuation.resume(returning: assignment)
            case .stopped: continuation.resume(returning: nil)
            case .empty: break
            }
        }
    }

    /// Records how `node` ended, releases its dependents, and (under the same lock) takes the
    /// next ready node of `pool` for the calling worker.
    /// - Returns: the nodes skipped or readied because of this one (for reporting), and the
    ///   caller's next assignment, or nil if none is ready right now (then call `nextAssignment`).
    func finish(
        _ node: Int, outcome: NodeOutcome, result: (any Artifact)?, attempts: Int,
        takingNextFrom pool: Int
    ) -> Finish {
        let end = clock.nanoseconds
        let summary = result?.summary ?? ""
        var wakeUps: [(CheckedContinuation<Assignment?, Never>, Assignment?)] = []
        var stopWaiter: (CheckedContinuation<StopReason, Never>, StopReason)?
        let dependents = plan.dependents
        let finish = state.withLock { state -> Finish in
            state.outcomes[node] = outcome
            state.timings[node].end = end
            state.timings[node].attempts = attempts
            state.timings[node].summary = summary
            state.finishedCount += 1
            var finish = Finish()
            if outcome == .succeeded {
                let isSink = dependents.successors(of: node).isEmpty
                if state.pendingConsumers[node] > 0 || isSink { state.results[node] = result }
                // The finishing worker takes the first node that becomes ready in its own pool
                // itself (no hand-off, no task switch); waiting workers get the rest.
                var keepForSelf = true
                let depth = state.depths[node] + 1
                for target in dependents.successors(of: node) {
                    let dependent = Int(target)
                    state.depths[dependent] = max(state.depths[dependent], depth)
                    state.remainingDependencies[dependent] -= 1
                    if state.remainingDependencies[dependent] == 0, state.outcomes[dependent] == nil {
                        if tracksReadiness { finish.readied.append(dependent) }
                        let samePool = poolOfNode[dependent] == poolOfNode[node]
                        enqueue(dependent, handOff: !(keepForSelf && samePool), in: &state, wakeUps: &wakeUps)
                        if samePool { keepForSelf = false }
                    }
                }
            } else if outcome.isFailure {
                finish.skipped = skipDependents(of: node, in: &state)
                if failFast { stopWaiter = Self.stop(.failFast, in: &state, wakeUps: &wakeUps) }
            }
            if state.finishedCount == plan.count {
                stopWaiter = Self.stop(.completed, in: &state, wakeUps: &wakeUps)
            }
            if case .assigned(let next) = Self.take(from: pool, in: &state, coordinator: self) {
                finish.next = next
            }
            wakeRootWaiters(in: &state, wakeUps: &wakeUps)
            return finish
        }
        for (continuation, assignment) in wakeUps { continuation.resume(returning: assignment) }
        if let (continuation, reason) = stopWaiter { continuation.resume(returning: reason) }
        return finish
    }

    /// Stops handing out work (cancellation, fail-fast); idempotent, the first reason wins.
    func stop(_ reason: StopReason) {
        var wakeUps: [(CheckedContinuation<Assignment?, Never>, Assignment?)] = []
        let stopWaiter = state.withLock { Self.stop(reason, in: &$0, wakeUps: &wakeUps) }
        for (continuation, assignment) in wakeUps { continuation.resume(returning: assignment) }
        if let (continuation, reason) = stopWaiter { continuation.resume(returning: reason) }
    }

    /// Waits until the run stops and tells why.
    func waitForStop() async -> StopReason {
        await withCheckedContinuation { continuation in
            let reason = state.withLock { state -> StopReason? in
                if let reason = state.stopReason { return reason }
                state.stopWaiter = continuation
                return nil
            }
            if let reason { continuation.resume(returning: reason) }
        }
    }

    /// The report of the run so far; nodes that never ran are `.notStarted`.
    func report(wasCancelled: Bool) -> RunReport {
        state.withLock { state in
            var finalResults: [String: any Artifact] = [:]
            let records = (0..<plan.count).map { index in
                let timing = state.timings[index]
                if plan.dependents.successors(of: index).isEmpty, let result = state.results[index] {
                    finalResults[plan.ids[index]] = result
                }
                return RunReport.NodeRecord(
                    id: plan.ids[index], type: plan.types[index],
                    outcome: state.outcomes[index] ?? .notStarted, attempts: timing.attempts,
                    startTime: RunClock.duration(nanoseconds: timing.start),
                    endTime: RunClock.duration(nanoseconds: timing.end), summary: timing.summary)
            }
            return RunReport(
                nodes: records, wallTime: clock.elapsed, wasCancelled: wasCancelled,
                finalResults: finalResults)
        }
    }

    // MARK: - Under the lock

    private func enqueue(
        _ node: Int, handOff: Bool, in state: inout State,
        wakeUps: inout [(CheckedContinuation<Assignment?, Never>, Assignment?)]
    ) {
        let pool = Int(poolOfNode[node])
        if handOff, state.stopReason == nil, !state.waiters[pool].isEmpty {
            let waiter = state.waiters[pool].removeLast()
            wakeUps.append((waiter, Self.assign(node, in: &state, coordinator: self)))
        } else {
            state.ready[pool].appendContinuing(node, depth: state.depths[node])
            state.readyContinuing += 1
        }
    }

    /// Hands waiting roots to idle workers once fewer than `rootLimit` nodes with dependencies
    /// are waiting.
    private func wakeRootWaiters(
        in state: inout State, wakeUps: inout [(CheckedContinuation<Assignment?, Never>, Assignment?)]
    ) {
        guard state.stopReason == nil else { return }
        for pool in state.waiters.indices {
            while state.readyContinuing < rootLimit, !state.waiters[pool].isEmpty,
                let root = state.ready[pool].popRoot()
            {
                let waiter = state.waiters[pool].removeLast()
                wakeUps.append((waiter, Self.assign(root, in: &state, coordinator: self)))
            }
        }
    }

    private func skipDependents(of failed: Int, in state: inout State) -> [Int] {
        let cause = plan.ids[failed]
        var skipped: [Int] = []
        var stack = plan.dependents.successors(of: failed).map(Int.init)
        while let node = stack.popLast() {
            guard state.outcomes[node] == nil else { continue }
            state.outcomes[node] = .skipped(because: cause)
            state.finishedCount += 1
            skipped.append(node)
            for dependency in plan.dependencies.successors(of: node) {
                Self.release(Int(dependency), in: &state)
            }
            stack.append(contentsOf: plan.dependents.successors(of: node).map(Int.init))
        }
        return skipped
    }

    private enum TakeResult {
        case assigned(Assignment)
        case stopped
        case empty
    }

    private static func take(
        from pool: Int, in state: inout State, coordinator: RunCoordinator
    ) -> TakeResult {
        if state.stopReason != nil { return .stopped }
        if let node = state.ready[pool].popContinuing() {
            state.readyContinuing -= 1
            return .assigned(assign(node, in: &state, coordinator: coordinator))
        }
        guard state.readyContinuing < coordinator.rootLimit, let root = state.ready[pool].popRoot() else {
            return .empty
        }
        return .assigned(assign(root, in: &state, coordinator: coordinator))
    }

    private static func assign(
        _ node: Int, in state: inout State, coordinator: RunCoordinator
    ) -> Assignment {
        state.timings[node].start = coordinator.clock.nanoseconds
        let plan = coordinator.plan
        let ids = plan.ids
        let dependencies = plan.dependencies.successors(of: node)
        var inputs: [TaskContext.Input] = []
        if !dependencies.isEmpty { inputs.reserveCapacity(dependencies.count) }
        for target in dependencies {
            let dependency = Int(target)
            if let result = state.results[dependency] {
                inputs.append(TaskContext.Input(id: ids[dependency], artifact: result))
            }
            release(dependency, in: &state)
        }
        return Assignment(node: node, inputs: inputs)
    }

    /// One consumer of `node` no longer needs its result; drop it when none is left.
    private static func release(_ node: Int, in state: inout State) {
        state.pendingConsumers[node] -= 1
        if state.pendingConsumers[node] == 0 { state.results[node] = nil }
    }

    private static func stop(
        _ reason: StopReason, in state: inout State,
        wakeUps: inout [(CheckedContinuation<Assignment?, Never>, Assignment?)]
    ) -> (CheckedContinuation<StopReason, Never>, StopReason)? {
        guard state.stopReason == nil else { return nil }
        state.stopReason = reason
        for pool in state.waiters.indices {
            wakeUps += state.waiters[pool].map { ($0, nil) }
            state.waiters[pool].removeAll()
        }
        defer { state.stopWaiter = nil }
        return state.stopWaiter.map { ($0, reason) }
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
