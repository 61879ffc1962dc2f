import Foundation

/// How one run uses a store: which results it may reuse, what it records, and what it learned
/// (each node's key components and cache decision). Make one per run, pass it to
/// `Engine.run(_:events:resources:cache:)`, then read `components` to remember them for the
/// next run's explanations.
///
/// It alone decides whether a node is reused or runs: the engine asks it twice per node,
/// before (`prepare`: reuse this result, or run and record under this key) and after
/// (`finished`), and hands it the graph as a `CacheGraph` when the run begins.
public final class RunCache: Sendable {
    /// Which operations run even when their result is stored (`--force`).
    public enum Forcing: Hashable, Sendable {
        /// None.
        case none
        /// Every operation.
        case all
        /// These instance ids and every operation that needs them, directly or not.
        case ids(Set<String>)
    }

    /// Where results are read and recorded.
    public let store: any ResultStore
    /// Whether stored results may be reused; `false` (`--no-cache`) still records.
    public let reuse: Bool
    /// Paths in explanations are shown relative to this directory when inside it.
    public let displayDirectory: String?
    /// Which results are worth storing.
    public let storagePolicy: StoragePolicy
    /// What the last run of the same command left, when this run starts from it.
    let known: KnownResults?
    private let forcing: Forcing
    private let previous: @Sendable (String) async -> KeyComponents?
    private let state = Locked(State())

    private struct State: ~Copyable {
        /// Read by index, field by field, in the getters below: iterating copied each memo
        /// whole, milliseconds for 10,000 nodes at the end of a run.
        var memos: [NodeMemo] = []
        var forced: [Bool] = []
        /// The graph of the run, from `begin`.
        var graph = CacheGraph(ExecutionGraph())
        /// Whether the run has a remote executor (`EngineOptions.remote`): its results are all stored.
        var runsRemotely = false
    }

    /// Prepares a run against `store`.
    /// - Parameters:
    ///   - previousComponents: an operation id's key components in the last run of the same
    ///     pipeline, to explain what changed (asked only for the operations looked up; it may
    ///     wait until they are read).
    ///   - reuse: `false` runs everything (and records it).
    ///   - forcing: operations that run whatever is stored.
    ///   - displayDirectory: paths in explanations are shown relative to it (e.g. the current
    ///     directory) when inside it.
    ///   - known: what the last run of the same command left (`KnownResults`): nodes it shows
    ///     unchanged are reused without a key or a record.
    ///   - storagePolicy: which results are worth storing (the others are recomputed when a
    ///     later run needs them).
    public init(
        store: any ResultStore, previousComponents: @escaping @Sendable (String) async -> KeyComponents? = { _ in nil },
        reuse: Bool = true,
        forcing: Forcing = .none, displayDirectory: String? = nil, known: KnownResults? = nil,
        storagePolicy: StoragePolicy = StoragePolicy()
    ) {
        self.storagePolicy = storagePolicy
        self.known = known
        self.displayDirectory = displayDirectory
        self.store = store
        self.previous = previousComponents
        self.reuse = reuse
        self.forcing = forcing
    }

    /// The key components of every node that has its result (it ran successfully or was
    /// reused), by id: what the next run's explanations compare with. A node that failed or
    /// was interrupted keeps the components of its last success.
    public var components: [String: KeyComponents] {
        state.withLock { state in
            state.memos.indices.reduce(into: [:]) { result, index in
                if let id = state.memos[index].id, let components = state.memos[index].components,
                    state.memos[index].digest != nil
                {
                    result[id] = components
                }
            }
        }
    }

    /// The cache decision of every node that got one, by id.
    public var decisions: [String: CacheDecision] {
        state.withLock { state in
            state.memos.indices.reduce(into: [:]) { result, index in
                if let id = state.memos[index].id, let decision = state.memos[index].decision { result[id] = decision }
            }
        }
    }

    /// Whether running the same nodes again now would reuse every one of them: each was reused
    /// as it was (nothing restored), or ran and was recorded, or has a constant result.
    public var wouldReuseEverything: Bool {
        state.withLock { state in
            state.memos.indices.allSatisfy { index in
                guard !state.memos[index].isConstant else { return true }
                guard state.memos[index].stored != nil, let decision = state.memos[index].decision else { return false }
                return decision.status == .miss || decision.reason == .unchanged
            }
        }
    }

    /// What the next run of the same command can start from (`KnownResults.Entry` by id), when
    /// `wouldReuseEverything`: each node's result digest, stored result and the files it rested
    /// on (for a node reused from `known`, those it had then).
    public var entriesForNextRun: [String: KnownResults.Entry]? {
        state.withLock { state -> [String: KnownResults.Entry]? in
            var entries: [String: KnownResults.Entry] = [:]
            entries.reserveCapacity(state.memos.count)
            for index in state.memos.indices {
                guard let id = state.memos[index].id, let digest = state.memos[index].digest else { return nil }
                let files = state.memos[index].files ?? known?.entries[id]?.files ?? []
                entries[id] = KnownResults.Entry(digest: digest, stored: state.memos[index].stored, files: files)
            }
            return entries
        }
    }

    /// The ids of the nodes reused from `known` without computing their keys.
    public var reusedFromKnown: [String] {
        state.withLock { state in
            state.memos.indices.compactMap { state.memos[$0].reusedFromKnown ? state.memos[$0].id : nil }
        }
    }

    /// Sizes the per-node records for `plan` and marks the forced nodes. `remotely`: the run
    /// has a remote executor (`EngineOptions.remote`).
    func begin(_ plan: CacheGraph, remotely: Bool = false) {
        var forced = [Bool](repeating: false, count: plan.count)
        switch forcing {
        case .none: break
        case .all: forced = [Bool](repeating: true, count: plan.count)
        case .ids(let ids):
            var stack = (0..<plan.count).filter { ids.contains(plan.id(of: $0)) }
            while let node = stack.popLast() {
                guard !forced[node] else { continue }
                forced[node] = true
                stack += plan.dependents.successors(of: node).map(Int.init)
            }
        }
        state.withLock { state in
            state.memos = [NodeMemo](repeating: NodeMemo(), count: plan.count)
            state.forced = forced
            state.graph = plan
            state.runsRemotely = remotely
        }
    }

    /// The graph of the run.
    var graph: CacheGraph {
        state.withLock { $0.graph }
    }

    /// Whether the run has a remote executor.
    var runsRemotely: Bool {
        state.withLock { $0.runsRemotely }
    }

    /// Takes `plan`, the run's graph with nodes added while it runs (`RunHandle`) from `first`
    /// on: sizes their records and marks those forced (all with `--force`, those named and what
    /// needs them).
    func grow(_ plan: CacheGraph, from first: Int) {
        let added = first..<plan.count
        let forcedIDs: Set<String>
        switch forcing {
        case .none: forcedIDs = []
        case .all: forcedIDs = Set(added.map { plan.id(of: $0) })
        case .ids(let ids): forcedIDs = ids
        }
        state.withLock { state in
            state.memos += [NodeMemo](repeating: NodeMemo(), count: added.count)
            for node in added {
                let needsForced = plan.dependencies.successors(of: node).contains { state.forced[Int($0)] }
                state.forced.append(forcedIDs.contains(plan.id(of: node)) || needsForced)
            }
            state.graph = plan
        }
    }

    /// The memo of `node`.
    func memo(of node: Int) -> NodeMemo {
        state.withLock { $0.memos[node] }
    }

    /// The result of `node` as it is in the store (reused, or recorded this run), if it is.
    func storedResult(of node: Int) -> StoredResult? {
        state.withLock { $0.memos[node].stored }
    }

    /// The key components of `node`, once its key was computed.
    func components(of node: Int) -> KeyComponents? {
        state.withLock { $0.memos[node].components }
    }

    /// Whether `node` was reused, once decided (without copying its memo).
    func status(of node: Int) -> CacheDecision.Status? {
        state.withLock { $0.memos[node].decision?.status }
    }

    /// What the record of `node` names instead of its result, when it was left out of the
    /// store (without copying its memo).
    func unstored(of node: Int) -> UnstoredResult? {
        state.withLock { $0.memos[node].unstored }
    }

    /// Updates the memo of `node`.
    func update(_ node: Int, _ body: (inout NodeMemo) -> Void) {
        state.withLock { body(&$0.memos[node]) }
    }

    /// Updates every node's memo at once, given which nodes `--force` covers.
    func updateAll(_ body: (_ memos: inout [NodeMemo], _ forced: [Bool]) -> Void) {
        state.withLock { state in body(&state.memos, state.forced) }
    }

    /// `path` relative to `displayDirectory` when it is inside it.
    func displayPath(_ path: String) -> String {
        guard let directory = displayDirectory else { return path }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    /// Whether `node` and everything it needs were reused without running or restoring anything.
    func untouched(_ node: Int) -> Bool {
        state.withLock { $0.memos[node].untouched }
    }

    /// Whether `--force` covers `node`.
    func isForced(_ node: Int) -> Bool {
        state.withLock { $0.forced[node] }
    }

    /// The components `id` had in the last run, if any.
    func previousComponents(of id: String) async -> KeyComponents? {
        await previous(id)
    }
}

/// What a run knows of one node's key and result.
struct NodeMemo: Sendable {
    /// The node's id, once its key was computed.
    var id: String?
    /// Its key components, when it is cacheable.
    var components: KeyComponents?
    /// Why it ran or did not.
    var decision: CacheDecision?
    /// The digest of its result, once known (dependents' keys need it).
    var digest: ContentDigest?
    /// Its result as stored, when it is in the store (a hit, or recorded this run): for a
    /// result left out of the store, the `UnstoredResult` naming it.
    var stored: StoredResult?
    /// For a result left out of the store, what its record names (`StoragePolicy`).
    var unstored: UnstoredResult?
    /// How its components differ from the last run's, or nil.
    var change: KeyChange?
    /// The files its key and hit rested on, once its key was computed.
    var files: [String]?
    /// Whether it was reused from `RunCache.known` without computing its key.
    var reusedFromKnown = false
    /// Whether it and everything it needs were reused without running or restoring anything
    /// (from `RunCache.known`, or a constant result): nothing this run did can have changed the
    /// files of what needs it.
    var untouched = false
    /// Whether its action has a constant result (`CacheableAction.constantResult`) and may be
    /// reused.
    var isConstant = false
    /// The change that started `change`, e.g. `parameter changed: blur_radius 8 -> 6 in
    /// tilt[lake]`: the root cause its dependents' explanations name.
    var cause: String?
}
