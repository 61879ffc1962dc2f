import TaskGraphCore

/// Renders what a run would do, level by level, without running anything (`--dry-run`).
public struct PlanPrinter {
    /// The graph to describe.
    public let graph: ExecutionGraph

    /// A printer for `graph`.
    public init(graph: ExecutionGraph) {
        self.graph = graph
    }

    /// The plan as text: one section per level (operations in a level can run at the same time).
    /// - Parameter status: what a run would do with an operation, by id (`run --dry-run`: `cached`,
    ///   `run (new)`), shown on a line of its own below it.
    public func render(status: ((String) -> String)? = nil) -> String {
        guard let levels = dependencyLevels(graph.dependencyList) else { return "the graph has a cycle\n" }
        var text =
            "plan: \(graph.nodes.count) operation\(graph.nodes.count == 1 ? "" : "s") in \(levels.count) "
            + "level\(levels.count == 1 ? "" : "s")\n"
        for (number, level) in levels.enumerated() {
            text += "level \(number + 1):\n"
            for index in level {
                let node = graph.nodes[index]
                var details = [node.type]
                let parameters = node.parameters.values.sorted { $0.key < $1.key }
                details += parameters.map { "\($0.key)=" + DisplayText.escaped("\($0.value.redacted)") }
                if node.settings.retries > 0 { details.append("retries=\(node.settings.retries)") }
                if let timeout = node.settings.timeout { details.append("timeout=\(DurationParser.format(timeout))") }
                if let pool = node.settings.pool { details.append("pool=\(pool)") }
                if node.settings.priority != 0 {
                    details.append("priority=" + QueuePriority.describe(node.settings.priority))
                }
                if node.settings.exclusive != .shared {
                    details.append("exclusive=\(node.settings.exclusive.rawValue)")
                }
                if node.settings.when != .success { details.append("when=\(node.settings.when.rawValue)") }
                // Each node on one line, and no control character reaches the terminal raw.
                text += "  \(DisplayText.escaped(node.id))  (\(details.joined(separator: ", ")))\n"
                if let status { text += "    \(DisplayText.escaped(status(node.id)))\n" }
            }
        }
        return text
    }
}
