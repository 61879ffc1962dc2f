import TaskGraphCore

/// `--explain` and `taskgraph explain`: one line per operation saying whether it runs and why.
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

    private static func line(for decision: CacheDecision) -> String {
        switch decision.status {
        case .hit: decision.reason == .unchanged ? "cached" : "cached: \(decision.fullExplanation)"
        case .miss: "run: \(decision.fullExplanation)"
        }
    }
}
