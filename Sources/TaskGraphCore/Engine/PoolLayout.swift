/// How a run's nodes map to pools and worker lanes.
///
/// Pool 0 is the default pool (depth `jobs`); named pools follow in name order. A pool gets as
/// many workers as its depth, but never more than it has nodes. Lanes number all workers from 0
/// so traces can draw one row per lane. A run that accepts nodes while it runs (`RunHandle`)
/// gives every pool as many workers as its depth.
struct PoolLayout {
    /// The pool index of every node.
    let poolOfNode: [Int32]
    /// The lane numbers of each pool's workers.
    let lanes: [Range<Int>]
    /// The index of each named pool.
    let indexByName: [String: Int32]

    init(plan: RunPlan, options: EngineOptions, growable: Bool = false) {
        let pools = plan.nodes.withUnsafeBufferPointer { nodes in nodes.indices.map { nodes[$0].settings.pool } }
        let names = Set(pools.compactMap { $0 }).sorted()
        var indexByName: [String: Int32] = [:]
        for (offset, name) in names.enumerated() { indexByName[name] = Int32(offset + 1) }
        poolOfNode =
            names.isEmpty
            ? Array(repeating: 0, count: pools.count)
            : pools.map { pool in pool.flatMap { indexByName[$0] } ?? 0 }
        var nodeCounts = Array(repeating: 0, count: names.count + 1)
        for pool in poolOfNode { nodeCounts[Int(pool)] += 1 }
        let depths = [options.jobs] + names.map { options.pools[$0] ?? options.jobs }
        var lanes: [Range<Int>] = []
        var nextLane = 0
        for (pool, depth) in depths.enumerated() {
            let workers = growable ? max(depth, 1) : min(max(depth, 1), nodeCounts[pool])
            lanes.append(nextLane..<(nextLane + workers))
            nextLane += workers
        }
        self.lanes = lanes
        self.indexByName = indexByName
    }
}
