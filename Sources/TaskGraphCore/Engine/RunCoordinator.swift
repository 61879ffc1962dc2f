import CSystemShims
import Synchronization

/// The shared state of one run (`RunState`) behind one lock, for workers calling in from any
/// thread.
///
/// The lock is never held across an `await`; waiting workers and the task waiting for the end
/// are resumed after it is released.
final class RunCoordinator: Sendable {
    typealias Assignment = RunState.Assignment
    typealias StopReason = RunState.StopReason

    /// The nodes the run started with (nodes added later are in `currentPlan()`); prefetch hints
    /// only look at these.
    let plan: RunPlan
    private let failFast: Bool
    let clock: RunClock
    /// Whether `finish` lists the nodes that became ready (for event consumers).
    private let tracksReadiness: Bool
    let state: Locked<RunState>
    /// How each node went, written by the worker that ran it (see `NodeHistories`).
    private let histories: NodeHistories
    /// Where the state's per-node records are, for prefetch hints only (they move when nodes
    /// are added).
    let progressBase: Atomic<UInt>
    private let progressStride = UInt(MemoryLayout<NodeProgress>.stride)
    /// Where the plan's nodes are, for prefetch hints only (the plan never changes).
    private let nodesLayout: (base: UInt, stride: UInt)

    /// Prepares a run of `plan`, where `poolOfNode[i]` indexes one of `poolCount` pools, which
    /// have `laneCount` workers in all, and the `settled` nodes ended before it (`RunState.init`).
    init(
        plan: RunPlan, poolOfNode: [Int32], poolCount: Int, laneCount: Int, failFast: Bool,
        tracksReadiness: Bool, clock: RunClock, settled: [(node: Int, stored: StoredResult)] = [],
        growth: RunState.Growth? = nil
    ) {
        self.plan = plan
        nodesLayout = plan.nodes.withUnsafeBufferPointer { nodes in
            (UInt(bitPattern: nodes.baseAddress), UInt(MemoryLayout<ExecutionGraph.Node>.stride))
        }
        self.failFast = failFast
        self.clock = clock
        self.tracksReadiness = tracksReadiness
        var initial = RunState(
            plan: plan, poolOfNode: poolOfNode, poolCount: poolCount, laneCount: laneCount, clock: clock,
            settled: settled)
        initial.growth = growth
        state = Locked(initial)
        let (layout, histories) = state.withLock { ($0.progressLayout, $0.histories) }
        progressBase = Atomic(layout.base)
        self.histories = histories
    }

    /// The plan with the nodes added so far, and its generation (`RunState.planGeneration`).
    func currentPlan() -> (plan: RunPlan, generation: Int) {
        state.withLock { ($0.plan, $0.planGeneration) }
    }

    /// The next node for a worker of `pool`, waiting until one is ready; nil once the run stops.
    func nextAssignment(pool: Int) async -> Assignment? {
        let now = clock.nanoseconds
        switch update({ state, wakeUps in Self.take(from: pool, in: &state, now: now, wakeUps: &wakeUps) }) {
        case .assigned(let assignment): return assignment
        case .stopped: return nil
        case .empty: break
        }
        return await withCheckedContinuation { continuation in
            let now = clock.nanoseconds
            let taken = update { state, wakeUps in
                let taken = Self.take(from: pool, in: &state, now: now, wakeUps: &wakeUps)
                if case .empty = taken { state.wait(continuation, in: pool) }
                return taken
            }
            switch taken {
            case .assigned(let assignment): continuation.resume(returning: assignment)
            case .stopped: continuation.resume(returning: nil)
            case .empty: break
            }
        }
    }

    /// Records how `node` ended (it was handed out at `start`, the `Assignment`'s; `error` is what
    /// failed it), releases its dependents, and (under the same lock) takes the next ready node of
    /// `pool` for the calling worker.
    /// - Returns: the nodes skipped or readied because of this one (for reporting), and the
    ///   caller's next assignment, or nil if none is ready right now (then call `nextAssignment`).
    func finish(
        _ node: Int, startedAt start: Int64, outcome: NodeOutcome, error: (any Error)?, result: (any OperationResult)?,
        attempts: Int, takingNextFrom pool: Int
    ) -> RunState.Finish {
        // Everything that needs no shared state is done before taking the lock.
        let now = clock.nanoseconds
        histories.record(
            NodeHistory(
                outcome: outcome, start: start, end: now, attempts: attempts, summary: result?.summary ?? "",
                error: error),
            for: node)
        prefetch(aroundFinishing: node)
        return update { state, wakeUps in
            var finish = state.finish(
                node, outcome: outcome, result: result, now: now, failFast: failFast,
                tracksReadiness: tracksReadiness, wakeUps: &wakeUps)
            if case .assigned(let next) = Self.take(from: pool, in: &state, now: now, wakeUps: &wakeUps) {
                finish.next = next
            }
            return finish
        }
    }

    /// Starts loading the records that finishing `node` will touch under the lock (its
    /// dependents'; the dependencies of the dependent this worker will likely take next), and
    /// what running that one reads (its node, its dependencies' ids), so those cache misses
    /// happen here, in parallel with other workers, not while every other worker waits for the
    /// lock. Hints only: nothing is read. At most `prefetchLimit` records of each kind, so a
    /// node with 100,000 dependents or a fan-in of 100,000 costs no more than a few.
    private func prefetch(aroundFinishing node: Int) {
        guard node < plan.count else { return }
        let dependents = plan.dependents.successorPositions(of: node)
        for position in dependents.prefix(Self.prefetchLimit) {
            prefetchProgress(of: plan.dependents.successor(at: position))
        }
        guard let first = dependents.first else { return }
        let next = plan.dependents.successor(at: first)
        let nodeAddress = nodesLayout.base &+ UInt(next) &* nodesLayout.stride
        for line in stride(from: 0, to: nodesLayout.stride, by: 64) { tg_prefetch_for_read(nodeAddress &+ line) }
        for position in plan.dependencies.successorPositions(of: next).prefix(Self.prefetchLimit) {
            let dependency = plan.dependencies.successor(at: position)
            prefetchProgress(of: dependency)
            tg_prefetch_for_read(nodesLayout.base &+ UInt(dependency) &* nodesLayout.stride)
        }
    }

    private static let prefetchLimit = 8

    private func prefetchProgress(of node: Int) {
        tg_prefetch_for_write(progressBase.load(ordering: .relaxed) &+ UInt(node) &* progressStride)
    }

    /// Pauses handing out work (running nodes go on), or resumes it.
    func setPaused(_ paused: Bool) {
        let now = clock.nanoseconds
        update { state, wakeUps in state.setPaused(paused, now: now, wakeUps: &wakeUps) }
    }

    /// Stops handing out work (cancellation, fail-fast); idempotent, the first reason wins.
    func stop(_ reason: StopReason) {
        update { state, wakeUps in state.stop(reason, wakeUps: &wakeUps) }
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
        state.withLock { $0.report(wasCancelled: wasCancelled) }
    }

    /// Runs `body` under the lock, then resumes the workers it woke and, once the run has
    /// stopped, the task waiting for that.
    func update<Result>(
        _ body: (inout RunState, inout RunState.WakeUps) -> Result
    ) -> Result {
        var wakeUps: RunState.WakeUps = []
        var stopWaiter: (CheckedContinuation<StopReason, Never>, StopReason)?
        let result = state.withLock { state in
            let result = body(&state, &wakeUps)
            if let reason = state.stopReason, let waiter = state.stopWaiter {
                stopWaiter = (waiter, reason)
                state.stopWaiter = nil
            }
            return result
        }
        for (continuation, assignment) in wakeUps { continuation.resume(returning: assignment) }
        if let (continuation, reason) = stopWaiter { continuation.resume(returning: reason) }
        return result
    }

    /// Takes the next node of `pool`, then hands what else may start to waiting workers (taking
    /// a node with dependencies may let waiting roots go; a node that ended may let a barrier
    /// start, or end one).
    private static func take(
        from pool: Int, in state: inout RunState, now: Int64, wakeUps: inout RunState.WakeUps
    ) -> RunState.Take {
        let taken = state.take(from: pool, now: now)
        state.wakeWaiters(now: now, wakeUps: &wakeUps)
        return taken
    }
}
