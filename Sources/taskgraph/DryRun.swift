import TaskGraphCore
import TaskGraphReporting

/// `run --dry-run` (`-n`): the plan, level by level, each operation with what a run would do
/// and why, as `make -n` and `snakemake -n` say; decided as `explain` decides.
enum DryRun {
    /// The plan of `graph`, decided with `session`'s store as a run with `reuse` would, and a
    /// last line counting what would run and what is cached.
    /// - Throws: `ValidationError` for a `--force` id that selects nothing.
    static func render(_ graph: ExecutionGraph, session: CacheSession, reuse: ReuseArguments) async throws -> String {
        let decisions = try await session.decisions(for: graph, reuse: reuse)
        let statuses = Dictionary(decisions.map { ($0.id, ExplanationPrinter.brief($0.decision)) }) { first, _ in first
        }
        let cached = decisions.filter { (try? $0.decision.get().status) == .hit }.count
        let plan = PlanPrinter(graph: graph).render { statuses[$0] ?? "run" }
        return plan + "\(graph.nodes.count - cached) to run, \(cached) cached\n"
    }
}
