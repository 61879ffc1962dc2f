import ArgumentParser
import TaskGraphCore
import TaskGraphReporting

/// `taskgraph list` (`ls`): a pipeline's operations, as `task --list` and `just --list` show a
/// project's tasks and recipes.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List a pipeline's operations: type, instances and description.",
        discussion: """
            One line per operation, in file order: its id (what `run FILE ID` and --force take), \
            its type, how many instances its foreach makes, and the first line of its description.
            """,
        aliases: ["ls"])

    @Argument(help: "The pipeline file.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    @OptionGroup var pipeline: PipelineArguments

    func run() async throws {
        let loaded = try await PipelineLoading.load(file, options: try pipeline.pipelineOptions())
        TextOutput.standardOutput.write(Self.render(loaded.operations, graph: loaded.graph))
        TextOutput.standardOutput.flush()
    }

    /// `operations` in aligned columns: id, type, instance count (for those with `foreach`),
    /// description.
    static func render(_ operations: [OperationSummary], graph: ExecutionGraph) -> String {
        var instances: [Substring: Int] = [:]
        for node in graph.nodes {
            let operation = node.id.prefix { $0 != "[" }
            if operation.endIndex != node.id.endIndex { instances[operation, default: 0] += 1 }
        }
        let rows = operations.map { operation in
            let count = instances[operation.id[...]] ?? (graph.index(of: operation.id) == nil ? 0 : nil)
            return [
                DisplayText.escaped(operation.id), DisplayText.escaped(operation.type),
                count.map { "\($0) instance\($0 == 1 ? "" : "s")" } ?? "",
                DisplayText.escaped(operation.description?.prefix { $0 != "\n" }.description ?? ""),
            ]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            var line = (0..<3).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count + 2) }.joined()
            line += row[3]
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }
}
