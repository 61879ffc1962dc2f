import ArgumentParser
import TaskGraphCore
import TaskGraphReporting

/// `taskgraph explain`: what `run --explain` would say, without running anything.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say, for every operation, whether a run would reuse its stored result or run it, and why.",
        discussion: """
            Nothing runs. An operation whose input would run is explained by that input's change, \
            traced to its root cause; it may still turn out cached when the input's result comes \
            out the same.
            """)

    @Argument(help: "The pipeline file.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    @Argument(help: ArgumentHelp("Only these operations (ids such as tilt or tilt[lake]).", valueName: "id"))
    var operations: [String] = []

    @OptionGroup var pipeline: PipelineArguments

    @OptionGroup var cache: CachingArguments

    func run() async throws {
        let loaded = try await PipelineLoading.load(file, options: try pipeline.pipelineOptions())
        let shown = operations.isEmpty ? nil : try InstanceSelection.ids(operations, in: loaded.graph, option: "explain")
        let session = await CacheSession.open(cache, pipelineFile: file)
        let forcing = try InstanceSelection.forcing(cache.force, names: [], in: loaded.graph)
        let runCache = await session.runCache(reuse: !cache.noCache, forcing: forcing)
        let decisions = await runCache.explain(loaded.graph).filter { shown?.contains($0.id) ?? true }
        TextOutput.standardOutput.write(ExplanationPrinter.render(decisions))
        TextOutput.standardOutput.flush()
    }
}
