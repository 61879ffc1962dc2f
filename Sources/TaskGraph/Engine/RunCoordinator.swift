import Synchronization

/// The shared bookkeeping of one run: which nodes are ready, which ended, which workers wait.
///
/// Workers call in from any thread; every access goes through one `Mutex`, never held across an
/// `await`. Continuations are resumed after the lock is released.
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

    private struct State {
        var remainingDependencies: [Int32]
        var pendingConsumers: [Int32]
        var ready: [ReadyQueue]
        var waiters: [[CheckedContinuation<Assignment?, Never>]]
        var outcomes: [NodeOutcome?]
        var results: [(any Artifact)?]
        var timings: [NodeTiming]
        var finishedCount = 0
        var stopReason: StopReason?
        var stopWaiter: CheckedContinuation<StopReason, Never>?
    }

    let nodes: [ExecutionGraph.Node]
    let poolOfNode: [Int32]
    private let dependents: AdjacencyList
    private let failFast: Bool
    private let clock: RunClock
    private let state: Mutex<State>

    /// Prepares a run of `nodes`, where `poolOfNode[i]` indexes one of `poolCount` pools.
    init(
        nodes: [ExecutionGraph.Node], poolOfNode: [Int32], poolCount: Int, failFast: Bool,
        clock: RunClock
    ) {
        self.nodes = nodes
        self.clock = clock
        self.poolOfNode = poolOfNode
        self.failFast = failFast
        let dependents = AdjacencyList(successors: nodes.map(\.dependencies)).reversed()
        self.dependents = dependents
        var initial = State(
            remainingDependencies: nodes.map { Int32($0.dependencies.count) },
            pendingConsumers: (0..<nodes.count).map { Int32(dependents.successors(of: $0).count) },
            ready: Array(repeating: ReadyQueue(), count: poolCount),
            waiters: Array(repeating: [], count: poolCount),
            outcomes: Array(repeating: nil, count: nodes.count),
            results: Array(repeating: nil, count: nodes.count),
            timings: Array(repeating: NodeTiming(), count: nodes.count))
        for node in nodes.indices where nodes[node].dependencies.isEmpty {
            initial.ready[Int(poolOfNode[node])].append(node)
        }
        if nodes.isEmpty { initial.stopReason = .completed }
        state = Mutex(initial)
    }

    /// The next node for a worker of `pool`, waiting until one is ready; nil once the run stops.
    func nextAssignment(pool: Int) async -> Assignment? {
        switch state.withLock({ Self.take(from: pool, in: &$0, nodes: nodes, clock: clock) }) {
        case .assigned(let assignment): return assignment
        case .stopped: return nil
        case .empty: break
        }
        return await withCheckedContinuation { continuation in
            let taken = state.withLock { state in
                let taken = Self.take(from: pool, in: &state, nodes: nodes, clock: clock)
                if case .empty = taken { state.waiters[pool].append(continuation) }
                return taken
            }
            switch taken {
            case .assigned(let assignment): continuation.resume(returning: assignment)
            case .stopped: continuation.resume(returning: nil)
            case .empty: break
            }
        }
    }

    /// Records how `node` ended, releases its dependents and returns the nodes skipped because
    /// of it (so the caller can report them).
    func finish(_ node: Int, outcome: NodeOutcome, result: (any Artifact)?, attempts: Int) -> [Int] {
        let end = clock.elapsed
        var wakeUps: [(CheckedContinuation<Assignment?, Never>, Assignment?)] = []
        var stopWaiter: (CheckedContinuation<StopReason, Never>, StopReason)?
        let skipped = state.withLock { state -> [Int] in
            state.outcomes[node] = outcome
            state.timings[node].end = end
            state.timings[node].attempts = attempts
            state.timings[node].summary = result?.summary ?? ""
            state.finishedCount += 1
            var skipped: [Int] = []
            if outcome == .succeeded {
                let isSink = dependents.successors(of: node).isEmpty
                if state.pendingConsumers[node] > 0 || isSink { state.results[node] = result }
                for dependent in dependents.successors(of: node).map(Int.init) {
                    state.remainingDependencies[dependent] -= 1
                    if state.remainingDependencies[dependent] == 0, state.outcomes[dependent] == nil {
                        enqueue(dependent, in: &state, wakeUps: &wakeUps)
                    }
                }
            } else if outcome.isFailure {
                skipped = skipDependents(of: node, in: &state)
                if failFast { stopWaiter = Self.stop(.failFast, in: &state, wakeUps: &wakeUps) }
            }
            if state.finishedCount == nodes.count {
                stopWaiter = Self.stop(.completed, in: &state, wakeUps: &wakeUps)
            }
            return skipped
        }
        for (continuation, assignment) in wakeUps { continuation.resume(returning: assignment) }
        if let (continuation, reason) = stopWaiter { continuation.resume(returning: reason) }
        return skipped
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
            let records = nodes.indices.map { index in
                let timing = state.timings[index]
                if dependents.successors(of: index).isEmpty, let result = state.results[index] {
                    finalResults[nodes[index].id] = result
                }
                return RunReport.NodeRecord(
                    id: nodes[index].id, type: nodes[index].type,
                    outcome: state.outcomes[index] ?? .notStarted, attempts: timing.attempts,
                    startTime: timing.start, endTime: timing.end, summary: timing.summary)
            }
            return RunReport(
                nodes: records, wallTime: clock.elapsed, wasCancelled: wasCancelled,
                finalResults: finalResults)
        }
    }

    // MARK: - Under the lock

    private func enqueue(
        _ node: Int, in state: inout State,
        wakeUps: inout [(CheckedContinuation<Assignment?, Never>, Assignment?)]
    ) {
        let pool = Int(poolOfNode[node])
        if state.stopReason == nil, !state.waiters[pool].isEmpty {
            let waiter = state.waiters[pool].removeLast()
            wakeUps.append((waiter, Self.assign(node, in: &state, nodes: nodes, clock: clock)))
        } else {
            state.ready[pool].append(node)
        }
    }

    private func skipDependents(of failed: Int, in state: inout State) -> [Int] {
        let cause = nodes[failed].id
        var skipped: [Int] = []
        var stack = dependents.successors(of: failed).map(Int.init)
        while let node = stack.popLast() {
            guard state.outcomes[node] == nil else { continue }
            state.outcomes[node] = .skipped(because: cause)
            state.finishedCount += 1
            skipped.append(node)
            for dependency in nodes[node].dependencies {
                Self.release(dependency, in: &state)
            }
            stack.append(contentsOf: dependents.successors(of: node).map(Int.init))
        }
        return skipped
    }

    private enum TakeResult {
        case assigned(Assignment)
        case stopped
        case empty
    }

    private static func take(
        from pool: Int, in state: inout State, nodes: [ExecutionGraph.Node], clock: RunClock
    ) -> TakeResult {
        if state.stopReason != nil { return .stopped }
        guard let node = state.ready[pool].popFirst() else { return .empty }
        return .assigned(assign(node, in: &state, nodes: nodes, clock: clock))
    }

    private static func assign(
        _ node: Int, in state: inout State, nodes: [ExecutionGraph.Node], clock: RunClock
    ) -> Assignment {
        state.timings[node].start = clock.elapsed
        let dependencies = nodes[node].dependencies
        var inputs: [TaskContext.Input] = []
        inputs.reserveCapacity(dependencies.count)
        for dependency in dependencies {
            if let result = state.results[dependency] {
                inputs.append(TaskContext.Input(id: nodes[dependency].id, artifact: result))
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

/// When a node ran, how often, and what it produced, for the report.
struct NodeTiming {
    var start: Duration?
    var end: Duration?
    var attempts = 0
    var summary = ""
}
