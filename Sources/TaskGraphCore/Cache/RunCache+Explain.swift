extension RunCache {
    /// Why each node of `graph` would run or be reused, without running anything: what
    /// `taskgraph explain` prints. A node whose input would run is explained by that input's
    /// change (it may still turn out a hit when the input's result comes out the same).
    /// - Returns: one decision per node, in graph order; a node whose key cannot be computed
    ///   (a declared input file is missing, its constant result has no digest) gets the error
    ///   instead.
    public func explain(_ graph: ExecutionGraph) async -> [(
        id: String, decision: Result<CacheDecision, ExplanationError>
    )] {
        let plan = CacheGraph(graph)
        begin(plan)
        var explained: [(id: String, decision: Result<CacheDecision, ExplanationError>)?] = Array(
            repeating: nil, count: plan.count)
        for node in dependencyOrder(plan.dependencies) ?? [] {
            let id = plan.id(of: node)
            // An input that will run: its result, so this key, is not known before it has run.
            let dependencies = plan.dependencies.successors(of: node).map(Int.init)
            if let blocker = dependencies.first(where: { memo(of: $0).digest == nil && memo(of: $0).decision != nil }) {
                let blockerMemo = memo(of: blocker)
                let cause =
                    blockerMemo.cause ?? blockerMemo.decision.map { "\($0.explanation) in \(plan.id(of: blocker))" }
                let decision = CacheDecision(.miss, .inputChanged, detail: plan.id(of: blocker), rootCause: cause)
                update(node) { memo in
                    memo.decision = decision
                    memo.cause = cause
                }
                explained[node] = (id, .success(decision))
                continue
            }
            let action = plan.read(node) { $0.pointee.action }
            switch await lookup(node, of: plan, action: action) {
            case .hit(let stored, let record, _, _):
                if record.resultKind != UnstoredResult.kind {
                    hit(node, stored: stored, decision: CacheDecision(.hit, .unchanged))
                } else if let placeholder = await unstoredPlaceholder(stored, of: node, in: plan) {
                    hit(node, stored: placeholder, decision: CacheDecision(.hit, .unchanged))
                }
            case .known:
                break
            case .constant(let result):
                do {
                    reused(node, constant: try await result.digest)
                } catch {
                    explained[node] = (id, .failure(ExplanationError(message: Self.digestFailure(of: id, error))))
                    continue
                }
            case .run:
                // A constant result is known before it runs: its dependents' keys are too.
                if let constant = (action as? any CacheableAction)?.constantResult {
                    do {
                        let digest = try await constant.digest
                        update(node) { $0.digest = digest }
                    } catch {
                        explained[node] = (id, .failure(ExplanationError(message: Self.digestFailure(of: id, error))))
                        continue
                    }
                }
            case .failed(let error):
                decide(node, CacheDecision(.miss, .new))
                explained[node] = (id, .failure(ExplanationError(message: String(describing: error))))
                continue
            }
            explained[node] = memo(of: node).decision.map { (id, .success($0)) }
        }
        return explained.compactMap { $0 }
    }
}

/// Why a node's key could not be computed, for `explain`.
public struct ExplanationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error's message.
    public var message: String
    public var description: String { message }
}
