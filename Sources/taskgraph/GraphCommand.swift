import ArgumentParser
import TaskGraph

extension GraphRenderer.Format: ExpressibleByArgument {}

/// `taskgraph graph`: prints the operation graph as DOT or Mermaid.
struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph", abstract: "Print the expanded operation graph as Graphviz DOT or Mermaid.")

    @Argument(help: "The pipeline file.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    @Option(help: "Output format: dot or mermaid.")
    var format: GraphRenderer.Format = .dot

    @OptionGroup var pipeline: PipelineArguments

    func run() async throws {
        let loaded = try await PipelineLoading.load(file, options: try pipeline.pipelineOptions())
        TextOutput.standardOutput.write(GraphRenderer(graph: loaded.graph).render(format))
        TextOutput.standardOutput.flush()
    }
}
