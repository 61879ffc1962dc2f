import Foundation

/// A pipeline file loaded, validated and planned: ready for the engine.
public struct Pipeline: Sendable {
    /// The file as the user named it.
    public let file: String
    /// The pipeline's name.
    public let name: String
    /// The planned graph of operation instances.
    public let graph: ExecutionGraph
    /// Absolute output directory.
    public let outputDirectory: String
    /// Depths of named pools (file, then command-line overrides).
    public let pools: [String: Int]
    /// Warnings found while validating (errors make loading fail).
    public let warnings: [Diagnostic]
    /// `executor:` (`local` or a registered executor's name), if the file sets it.
    public let executor: String?
    /// `store:` as an absolute path, if the file sets it.
    public let store: String?
    /// Notes found while validating (how matrix operations pair), which `validate` prints.
    public let notes: [Diagnostic]
    /// The patterns `foreach` lists files with (`glob:`), absolute: the graph depends on those
    /// directory listings as well as on the file.
    public let globPatterns: [String]
    /// Whether a `foreach` lists files, so that a plan of it is not kept.
    public var usesGlobs: Bool { !globPatterns.isEmpty }
    /// The files the pipeline file includes, directly or not (`include:`), as diagnostics name
    /// them: what the plan rests on besides the file itself.
    public let includedFiles: [String]
    /// The operations as written, in file order (`taskgraph list`); none in a plan read back
    /// from a cache.
    public let operations: [OperationSummary]

    /// A pipeline with every field given (a plan read back from a cache).
    package init(
        file: String, name: String, graph: ExecutionGraph, outputDirectory: String, pools: [String: Int],
        warnings: [Diagnostic], executor: String?, store: String?, includedFiles: [String] = [],
        operations: [OperationSummary] = [], notes: [Diagnostic] = [], globPatterns: [String] = []
    ) {
        self.file = file
        self.name = name
        self.graph = graph
        self.outputDirectory = outputDirectory
        self.pools = pools
        self.warnings = warnings
        self.executor = executor
        self.store = store
        self.includedFiles = includedFiles
        self.operations = operations
        self.notes = notes
        self.globPatterns = globPatterns
    }

    /// Loads, validates and plans the pipeline in `file`. Blocking (reads the file): call from a
    /// dedicated thread (`BlockingIO.run`) in async code.
    /// - Throws: `PipelineError.invalid` with every diagnostic, sorted, when anything is wrong.
    public static func load(file: String, options: PipelineOptions = PipelineOptions()) throws(PipelineError)
        -> Pipeline
    {
        let bytes: Data
        do {
            bytes = try FileIO.read(file)
        } catch {
            throw .invalid([.error(error.description, at: SourceLocation(file: file, line: 1, column: 1))])
        }
        return try load(bytes: bytes, file: file, options: options)
    }

    /// Loads, validates and plans a pipeline from the bytes of a file, reporting locations in
    /// `file`: UTF-8 text without NUL, or a located error (`PipelineText`).
    /// - Throws: `PipelineError.invalid` with every diagnostic, sorted, when anything is wrong.
    public static func load(bytes: Data, file: String, options: PipelineOptions = PipelineOptions())
        throws(PipelineError) -> Pipeline
    {
        try load(text: PipelineText.decode(bytes, file: file), file: file, options: options)
    }

    /// Loads, validates and plans a pipeline from `text`, reporting locations in `file`.
    /// - Throws: `PipelineError.invalid` with every diagnostic, sorted, when anything is wrong.
    public static func load(text: String, file: String, options: PipelineOptions = PipelineOptions())
        throws(PipelineError) -> Pipeline
    {
        let loader = PipelineLoader(
            declarations: options.registry.declarations, environment: options.environment,
            overrides: options.variables)
        let (spec, loadDiagnostics) = loader.load(text: text, file: file)
        guard let spec else { throw .invalid(loadDiagnostics.sortedForDisplay()) }
        let currentDirectory = FileManager.default.currentDirectoryPath
        let output = options.outputDirectory ?? spec.output?.value ?? "out/\(spec.name)"
        let outputDirectory = PathResolver.resolve(output, in: currentDirectory)
        let fileDirectory = (PathResolver.resolve(file, in: currentDirectory) as NSString).deletingLastPathComponent
        let planner = PipelinePlanner(
            registry: options.registry, pipelineDirectory: fileDirectory,
            outputDirectory: outputDirectory, poolOverrides: options.pools, checksFiles: options.checksFiles)
        let (graph, planDiagnostics) = planner.plan(spec)
        let diagnostics = Array(Set(loadDiagnostics + planDiagnostics)).sortedForDisplay()
        guard let graph, !diagnostics.containsErrors else { throw .invalid(diagnostics) }
        return Pipeline(
            file: file, name: spec.name, graph: graph, outputDirectory: outputDirectory,
            pools: spec.pools.mapValues(\.value).merging(options.pools) { _, override in override },
            warnings: diagnostics.filter { $0.severity != .note }, executor: spec.executor?.value,
            store: spec.store.map { PathResolver.resolve($0.value, in: currentDirectory) },
            includedFiles: spec.includedFiles,
            operations: spec.operations.map {
                OperationSummary(id: $0.id.value, type: $0.type?.value ?? "", description: $0.description)
            },
            notes: diagnostics.filter { $0.severity == .note },
            globPatterns: spec.operations.flatMap { $0.foreach?.globPatterns ?? [] }.map {
                PathResolver.normalized(PathResolver.resolve($0, in: fileDirectory))
            })
    }
}

/// Choices that shape how a pipeline file is read.
public struct PipelineOptions: Sendable {
    /// `--var name=value` overrides.
    public var variables: [String: String]
    /// The pipeline's environment: for `${env.NAME}`, and the only source of the variables
    /// operations declare they read (`exec`'s passed-through ones, `key_env`).
    public var environment: [String: String]
    /// `--output`: overrides the file's `output:`.
    public var outputDirectory: String?
    /// `--pool name=N`: overrides or adds pools.
    public var pools: [String: Int]
    /// The operation types available.
    public var registry: OperationRegistry
    /// Whether missing files and programs operations need are errors now (`validate`), rather
    /// than failures of the operations when they run.
    public var checksFiles = false

    /// Creates options; by default the process environment and the core operations.
    public init(
        variables: [String: String] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        outputDirectory: String? = nil, pools: [String: Int] = [:],
        registry: OperationRegistry = .core
    ) {
        self.variables = variables
        self.environment = environment
        self.outputDirectory = outputDirectory
        self.pools = pools
        self.registry = registry
    }
}
