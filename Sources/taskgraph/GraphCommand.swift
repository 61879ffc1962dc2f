import ArgumentParser
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting

extension GraphRenderer.Format: ArgumentChoice {}

/// `taskgraph graph`: prints the operation graph as DOT or Mermaid; a `foreach: {from: …}`
/// operation is one node, `download[*]`, with its number of instances in a recorded run.
struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph", abstract: "Print the expanded operation graph as Graphviz DOT or Mermaid.")

    @Argument(help: "The pipeline file.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    @Option(help: "Output format: dot or mermaid.")
    var format: GraphRenderer.Format = .dot

    @Option(
        help: ArgumentHelp(
            "Colour operations by how they ended in a run recorded with 'run --events'.", valueName: "file"))
    var events: String?

    @OptionGroup var pipeline: PipelineArguments

    func run() async throws {
        let loaded = try await PipelineLoading.load(file, options: try pipeline.pipelineOptions())
        var renderer = GraphRenderer(graph: loaded.graph)
        if let events {
            let recorded: [String: NodeOutcome]
            do {
                recorded = try await BlockingIO.run { try RecordedOutcomes.load(events) }
            } catch {
                throw ValidationError("--events: \(error)")
            }
            renderer.outcomes = loaded.graph.nodes.map { recorded[$0.id] ?? .notStarted }
            renderer.instanceCounts = GraphRenderer.instanceCounts(of: loaded.graph, among: recorded.keys)
        }
        TextOutput.standardOutput.write(renderer.render(format))
        TextOutput.standardOutput.flush()
    }
}
