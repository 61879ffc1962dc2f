import Foundation

extension RunCache {
    /// What the store has for a node about to run.
    enum Lookup {
        /// The last run of the same command shows it unchanged (`KnownResults`): reuse `stored`
        /// as it is, files and all.
        case known(StoredResult)
        /// Its result is stored under its key: reuse `record` after restoring those of its
        /// files in `unverified` that need it (the others are known to hold their blobs).
        case hit(StoredResult, ActionRecord, unverified: [ActionRecord.OutputFile], key: ContentDigest)
        /// Its action's result is constant (`CacheableAction.constantResult`) and every node it
        /// needs was reused: reuse `result` without reading the store.
        case constant(any OperationResult)
        /// Run it, and record the result under `key` if there is one.
        case run(key: ContentDigest?)
        /// Its key could not be computed (a declared input is missing): it fails with this error.
        case failed(any Error)
    }

    /// Computes the key of `node` (whose dependencies have all finished), decides whether to
    /// reuse a stored result, and records the decision (a hit's is recorded by `hit(_:…)`).
    func lookup(_ node: Int, of plan: CacheGraph, action: any TaskAction) async -> Lookup {
        let (id, settings) = plan.read(node) { ($0.pointee.id, $0.pointee.settings) }
        let cacheable = action as? any CacheableAction
        let constant = cacheable?.constantResult
        update(node) { memo in
            memo.id = id
            memo.isConstant = constant != nil && settings.cache
        }
        if let constant {
            return lookup(node, constant: constant, settings: settings, in: plan)
        }
        guard let cacheable else {
            decide(node, CacheDecision(.miss, .notCacheable))
            return .run(key: nil)
        }
        // The setup first: a cast to an existential costs more, and nearly every node has one.
        if plan.read(node, { $0.pointee.setup == nil }), cacheable is any BuiltInAction {
            decide(node, CacheDecision(.miss, .notCacheable, detail: "built-in action added without its setup"))
            return .run(key: nil)
        }
        if let reason = cacheable.alwaysRunReason, !settings.cacheRequested {
            decide(node, CacheDecision(.miss, .notCacheable, detail: reason))
            return .run(key: nil)
        }
        // Off: no key, no components, no digests of its files (nor of its result, unless a
        // cached node needs it); what needs it names it as the cause of its change.
        guard settings.cache else {
            let decision = CacheDecision(.miss, .disabled)
            update(node) { memo in
                memo.decision = decision
                memo.cause = "\(decision.explanation) in \(id)"
            }
            return .run(key: nil)
        }
        guard let inputs = inputDigests(of: node, in: plan) else {
            decide(node, CacheDecision(.miss, .notCacheable))
            return .run(key: nil)
        }
        if let (stored, untouched) = await knownResult(of: node, id: id, inputs: inputs, in: plan) {
            hit(node, stored: stored, decision: CacheDecision(.hit, .unchanged))
            update(node) { memo in
                memo.reusedFromKnown = true
                memo.untouched = untouched
            }
            return .known(stored)
        }
        let components: KeyComponents
        let digester = RecordingDigester(store)
        do {
            components = try await KeyComponents.of(
                plan.nodes[node], action: cacheable, inputs: inputs, files: digester)
        } catch {
            return .failed(error)
        }
        update(node) { $0.files = digester.paths + cacheable.outputFiles }
        let previous = await previousComponents(of: id)
        let change = previous.flatMap { KeyChange.between($0, components) }
        let cause = cause(of: change, id: id, in: plan, dependenciesOf: node)
        update(node) { memo in
            memo.components = components
            memo.change = change
            memo.cause = cause
        }
        let key = components.key
        if isForced(node) {
            decide(node, CacheDecision(.miss, .forced))
            return .run(key: key)
        }
        guard reuse else {
            decide(node, CacheDecision(.miss, .disabled))
            return .run(key: key)
        }
        if let (record, unverified) = await store.reusableRecord(for: key) {
            return .hit(StoredResult(record), record, unverified: unverified, key: key)
        }
        decide(node, missDecision(change: change, hasPrevious: previous != nil, cause: cause, in: plan, node: node))
        return .run(key: key)
    }

    /// The result `known` has for `node` when it shows the node unchanged: its inputs' results
    /// have the digests they had and none of its files changed, at the start or, when something
    /// it needs may have written files in this run, now. `untouched` tells which: the node and
    /// everything it needs were reused without running or restoring anything.
    private func knownResult(
        of node: Int, id: String, inputs: [(id: String, digest: ContentDigest)], in plan: CacheGraph
    ) async -> (stored: StoredResult, untouched: Bool)? {
        guard reuse, let known, let entry = known.entries[id], let stored = entry.stored,
            !isForced(node), inputs.allSatisfy({ known.entries[$0.id]?.digest == $0.digest }),
            !known.changedOperations.contains(id)
        else { return nil }
        if dependenciesUntouched(node, in: plan) { return (stored, true) }
        let unchanged = (try? await BlockingIO.run { entry.files.allSatisfy(known.isUnchanged) }) ?? false
        return unchanged ? (stored, false) : nil
    }

    /// Whether every node `node` needs was reused without running or restoring anything, and so
    /// was everything they need: nothing this run did can have changed `node`'s files.
    private func dependenciesUntouched(_ node: Int, in plan: CacheGraph) -> Bool {
        plan.dependencies.successors(of: node).allSatisfy { untouched(Int($0)) }
    }

    /// Records that `node` reused `stored` (the decision says whether a file was restored).
    func hit(_ node: Int, stored: StoredResult, decision: CacheDecision) {
        update(node) { memo in
            memo.digest = stored.digest
            memo.stored = stored
            memo.decision = decision
        }
    }

    /// The lookup of a node whose result is `constant`: it has no key and touches no store. It
    /// is reused when every node it needs was (so a run where nothing changed reuses it), and
    /// otherwise runs, explained by the first input that did not.
    private func lookup(_ node: Int, constant: any OperationResult, settings: NodeSettings, in plan: CacheGraph)
        -> Lookup
    {
        guard settings.cache, reuse else {
            decide(node, CacheDecision(.miss, .disabled))
            return .run(key: nil)
        }
        if isForced(node) {
            decide(node, CacheDecision(.miss, .forced))
            return .run(key: nil)
        }
        for dependency in plan.dependencies.successors(of: node).map(Int.init) {
            guard status(of: dependency) != .hit else { continue }
            let memo = memo(of: dependency)
            let cause = memo.cause ?? memo.decision.map { "\($0.explanation) in \(plan.id(of: dependency))" }
            update(node) { $0.cause = cause }
            decide(node, CacheDecision(.miss, .inputChanged, detail: plan.id(of: dependency), rootCause: cause))
            return .run(key: nil)
        }
        let untouched = dependenciesUntouched(node, in: plan)
        update(node) { $0.untouched = untouched }
        return .constant(constant)
    }

    /// Records that `node` reused its constant result, whose digest is `digest`.
    func reused(_ node: Int, constant digest: ContentDigest) {
        update(node) { memo in
            memo.digest = digest
            memo.decision = CacheDecision(.hit, .unchanged)
        }
    }

    /// Records the decision of `node`.
    func decide(_ node: Int, _ decision: CacheDecision) {
        update(node) { $0.decision = decision }
    }

    /// The digests of `node`'s inputs' results, in declared order, or nil if one is unknown.
    private func inputDigests(of node: Int, in plan: CacheGraph) -> [(id: String, digest: ContentDigest)]? {
        var inputs: [(id: String, digest: ContentDigest)] = []
        for dependency in plan.dependencies.successors(of: node) {
            guard let digest = memo(of: Int(dependency)).digest else { return nil }
            inputs.append((plan.id(of: Int(dependency)), digest))
        }
        return inputs
    }

    /// Why a node whose key is not in the store runs.
    private func missDecision(
        change: KeyChange?, hasPrevious: Bool, cause: String?, in plan: CacheGraph, node: Int
    ) -> CacheDecision {
        guard let change else {
            // Same key as last time, yet not stored: never recorded, evicted or removed.
            return CacheDecision(.miss, .new, detail: hasPrevious ? "not in the cache" : "")
        }
        guard change.reason == .inputChanged else { return CacheDecision(.miss, change.reason, detail: change.detail) }
        return CacheDecision(
            .miss, .inputChanged, detail: change.detail,
            rootCause: rootCause(ofInput: change.detail, of: node, in: plan))
    }

    /// The change that started a change of `node` (`id`): its own change, or for an input
    /// change, the root cause of that input's change.
    private func cause(of change: KeyChange?, id: String, in plan: CacheGraph, dependenciesOf node: Int) -> String? {
        guard let change else { return nil }
        guard change.reason == .inputChanged else {
            let explanation =
                change.detail.isEmpty ? change.reason.rawValue : "\(change.reason.rawValue): \(change.detail)"
            return "\(explanation) in \(id)"
        }
        return rootCause(ofInput: change.detail, of: node, in: plan)
    }

    /// The root cause recorded for the input `inputID` of `node`.
    private func rootCause(ofInput inputID: String, of node: Int, in plan: CacheGraph) -> String {
        for dependency in plan.dependencies.successors(of: node) where plan.id(of: Int(dependency)) == inputID {
            if let cause = memo(of: Int(dependency)).cause { return cause }
        }
        return "\(inputID) produced a different result"
    }
}
