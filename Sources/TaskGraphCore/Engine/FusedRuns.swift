/// What a run knows of its fused chains (docs/cluster.md, "Fusion"): which nodes form them, the
/// completions a chain's job brought back for nodes that have not started yet, and which
/// nodes' results are known by digest only (not in the store).
final class FusedRuns: Sendable {
    /// A completion brought back for a node that starts later, and its job's status.
    struct Waiting: Sendable {
        var completion: RemoteCompletion
        var status: RemoteJobStatus?
    }

    /// The run's chains.
    let chains: FusedChains
    private let state = Locked(State())

    private struct State: ~Copyable {
        var waiting: [Int: Waiting] = [:]
        var unstored: Set<Int> = []
    }

    /// The chains of `plan` among the nodes `remote` fuses (those with a setup and no constant
    /// result).
    init(plan: RunPlan, remote: any RemoteExecutor) {
        chains = FusedChains(
            count: plan.count, needs: { plan.dependencies.successors(of: $0).map(Int.init) },
            dependents: { plan.dependents.successors(of: $0).map(Int.init) },
            fusible: { node in
                plan.read(node) {
                    $0.pointee.setup != nil && remote.fuses($0.pointee.settings)
                        && ($0.pointee.action as? any CacheableAction)?.constantResult == nil
                }
            })
    }

    /// Keeps `waiting` for `node`, which starts later.
    func keep(_ waiting: Waiting, for node: Int) {
        state.withLock { $0.waiting[node] = waiting }
    }

    /// Takes what was kept for `node`, if anything.
    func take(_ node: Int) -> Waiting? {
        state.withLock { $0.waiting.removeValue(forKey: node) }
    }

    /// Marks `node`'s result as known by digest only.
    func markUnstored(_ node: Int) {
        _ = state.withLock { $0.unstored.insert(node) }
    }

    /// Whether `node`'s result is known by digest only.
    func isUnstored(_ node: Int) -> Bool {
        state.withLock { $0.unstored.contains(node) }
    }
}
