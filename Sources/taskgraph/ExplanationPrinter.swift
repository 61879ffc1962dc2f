import TaskGraphCore

/// `--explain`, `taskgraph explain` and `run --dry-run`: whether each operation runs and why.
enum ExplanationPrinter {
    /// `tone[lake]: run: input changed: tilt[lake] <- parameter changed: blur_radius 8 -> 6 in
    /// tilt[lake]`, `save[lake]: cached`, one line per entry, in the order given.
    static func render(_ decisions: [(id: String, decision: Result<CacheDecision, ExplanationError>)]) -> String {
        decisions.map { entry in
            switch entry.decision {
            case .success(let decision): "\(entry.id): \(line(for: decision))\n"
            case .failure(let error): "\(entry.id): error: \(error)\n"
            }
        }.joined()
    }

    /// `load[sunset]: removed: the last run had it, the pipeline no longer does` for each of
    /// `ids` in order (the instances of a file gone from a glob, an operation taken out).
    static func removed(_ ids: Set<String>) -> String {
        ids.sorted().map { "\($0): removed: the last run had it, the pipeline no longer does\n" }.joined()
    }

    /// `run --explain`'s lines after the run: each operation of `graph` with its decision, in
    /// the graph's order, then each of `previousIDs` (the last run's) that `graph` no longer has.
    static func afterRun(
        _ decisions: [String: CacheDecision], of graph: ExecutionGraph, previousIDs: Set<String>?
    ) -> String {
        let lines = render(graph.nodes.compactMap { node in decisions[node.id].map { (node.id, .success($0)) } })
        guard let previousIDs else { return lines }
        return lines + removed(previousIDs.subtracting(graph.nodes.map(\.id)))
    }

    /// `run (input changed: tilt[lake])` or `cached`, as `run --dry-run` shows an operation:
    /// the reason without its root cause (the operation it names shows it).
    static func brief(_ decision: Result<CacheDecision, ExplanationError>) -> String {
        switch decision {
        case .success(let decision) where decision.status == .hit:
            decision.reason == .unchanged ? "cached" : "cached (\(decision.explanation))"
        case .success(let decision): "run (\(decision.explanation))"
        case .failure(let error): "error: \(error)"
        }
    }

    private static func line(for decision: CacheDecision) -> String {
        switch decision.status {
        case .hit: decision.reason == .unchanged ? "cached" : "cached: \(decision.fullExplanation)"
        case .miss: "run: \(decision.fullExplanation)"
        }
    }
}
