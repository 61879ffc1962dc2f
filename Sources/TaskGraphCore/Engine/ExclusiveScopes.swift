/// Which pools may start nodes now, given the exclusive nodes (barriers) of a run: a barrier
/// starts only when nothing else of its scope (its pool, or the whole run) is running, and
/// nothing else of its scope starts until it has finished.
///
/// A barrier taken from its pool's ready queue while its scope is busy is held here; from then
/// on nothing else of its scope starts, so the running nodes drain and the barrier cannot be
/// starved. Part of `RunState`, behind its lock.
struct ExclusiveScopes {
    /// Nodes running in each pool.
    private var running: [Int32]
    /// Nodes running in every pool.
    private var runningTotal = 0
    /// The barrier held in each pool until its scope drains, if any.
    private var held: [(node: Int, scope: Exclusivity)?]
    /// Pools where a barrier of scope `pool` is running.
    private var closedPools: [Bool]
    /// Whether a barrier of scope `run` is held or running: nothing else starts anywhere.
    private var runClosed = false

    /// Scopes for `poolCount` pools, with nothing running.
    init(poolCount: Int) {
        running = Array(repeating: 0, count: poolCount)
        held = Array(repeating: nil, count: poolCount)
        closedPools = Array(repeating: false, count: poolCount)
    }

    /// Whether a worker of `pool` may take a new node from the ready queue.
    func admitsNewWork(in pool: Int) -> Bool {
        !runClosed && !closedPools[pool] && held[pool] == nil
    }

    /// Takes `node`, a barrier of `scope` in `pool` just taken from its ready queue: it may
    /// start now (true), or is held until its scope drains (false).
    mutating func admit(barrier node: Int, scope: Exclusivity, in pool: Int) -> Bool {
        if scope == .run { runClosed = true }
        guard isDrained(scope, pool) else {
            held[pool] = (node, scope)
            return false
        }
        return true
    }

    /// The barrier held in `pool` if its scope has drained and no barrier of scope `run` is
    /// held or running but itself (it is no longer held then).
    mutating func releaseHeld(in pool: Int) -> Int? {
        guard let barrier = held[pool], barrier.scope == .run || !runClosed, isDrained(barrier.scope, pool) else {
            return nil
        }
        held[pool] = nil
        return barrier.node
    }

    /// A node of `pool` started.
    mutating func started(in pool: Int, exclusive: Exclusivity) {
        running[pool] += 1
        runningTotal += 1
        if exclusive == .pool { closedPools[pool] = true }
    }

    /// A node of `pool` that had started ended.
    mutating func ended(in pool: Int, exclusive: Exclusivity) {
        running[pool] -= 1
        runningTotal -= 1
        switch exclusive {
        case .shared: break
        case .pool: closedPools[pool] = false
        case .run: runClosed = false
        }
    }

    private func isDrained(_ scope: Exclusivity, _ pool: Int) -> Bool {
        scope == .run ? runningTotal == 0 : running[pool] == 0
    }
}
