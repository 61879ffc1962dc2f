import ArgumentParser
import TaskGraphCore
import TaskGraphReporting

/// `taskgraph explain`: what `run --explain` would say, without running anything.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say, for every operation, whether a run would reuse its stored result or run it, and why.",
        discussion: """
            Nothing runs and nothing is written: explain reads the pipeline, the files its \
            operations declare and the cache, and prints one line per operation, `cached` or \
            `run:` and the reason, as `run --explain` does after a run. --no-cache and --force \
            explain a run with those options. An operation whose input would run is explained \
            by that input's change, traced to its root cause; it may still turn out cached when \
            the input's result comes out the same.
            """)

    @Argument(help: "The pipeline file.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    @Argument(
        help: ArgumentHelp("Explain only these operations (ids such as tilt or tilt[lake]).", valueName: "id"),
        completion: OperationIDCompletion.kind)
    var operations: [String] = []

    @OptionGroup var pipeline: PipelineArguments

    @OptionGroup var location: CacheArguments

    @OptionGroup var reuse: ReuseArguments

    func run() async throws {
        let loaded = try await PipelineLoading.load(file, options: try pipeline.pipelineOptions())
        let shown =
            operations.isEmpty ? nil : try InstanceSelection.ids(operations, in: loaded.graph, option: "explain")
        let session = await CacheSession.open(location, pipelineFile: file, storeRoot: loaded.store)
        let decisions = try await session.decisions(for: loaded.graph, reuse: reuse).filter {
            shown?.contains($0.id) ?? true
        }
        TextOutput.standardOutput.write(ExplanationPrinter.render(decisions))
        // Instances a fan-out adds from a result are not in the graph until it runs.
        if operations.isEmpty, !loaded.graph.addsNodesWhileRunning,
            let previous = await session.store.lastRunIDs(pipeline: session.pipeline)
        {
            TextOutput.standardOutput.write(
                ExplanationPrinter.removed(previous.subtracting(loaded.graph.nodes.map(\.id))))
        }
        TextOutput.standardOutput.flush()
    }
}
