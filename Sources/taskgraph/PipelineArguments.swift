import ArgumentParser
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting

/// Options shared by the commands that read a pipeline file.
struct PipelineArguments: ParsableArguments {
    @Option(
        name: .customLong("var"),
        help: ArgumentHelp(
            "Set a variable (repeatable); a list variable takes comma-separated items.", valueName: "name=value"))
    var variables: [String] = []

    @Option(help: ArgumentHelp("Set a pool's depth (repeatable), e.g. --pool net=8.", valueName: "name=N"))
    var pool: [String] = []

    @Option(help: ArgumentHelp("Output directory (default: the file's 'output', else out/<name>).", valueName: "dir"))
    var output: String?

    func validate() throws {
        _ = try parsedVariables()
        _ = try parsedPools()
    }

    /// `--var` values by name.
    func parsedVariables() throws -> [String: String] {
        try Dictionary(variables.map { try Self.split($0, option: "--var") }, uniquingKeysWith: { _, last in last })
    }

    /// `--pool` depths by name.
    func parsedPools() throws -> [String: Int] {
        try Dictionary(
            pool.map { entry in
                let (name, value) = try Self.split(entry, option: "--pool")
                guard let depth = Int(value), depth >= 1 else {
                    throw ValidationError("--pool \(entry): the depth must be a whole number of at least 1")
                }
                return (name, depth)
            }, uniquingKeysWith: { _, last in last })
    }

    /// The options for loading pipelines.
    func pipelineOptions() throws -> PipelineOptions {
        PipelineOptions(
            variables: try parsedVariables(), environment: ProcessEnvironment.variables, outputDirectory: output,
            pools: try parsedPools(), registry: .builtIn)
    }

    private static func split(_ entry: String, option: String) throws -> (String, String) {
        guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
            throw ValidationError("\(option) \(entry): expected name=value")
        }
        return (String(entry[..<equals]), String(entry[entry.index(after: equals)...]))
    }
}
