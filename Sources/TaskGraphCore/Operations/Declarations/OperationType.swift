import Foundation

/// An operation type a pipeline can use (`op: exec`): its parameters, what it consumes and
/// produces, and how to make the action for one configured instance.
public struct OperationType: Sendable {
    /// The name pipelines write after `op:`.
    public var name: String
    /// One line for `list-ops`, help and the README.
    public var summary: String
    /// The parameters it accepts.
    public var parameters: [ParameterSpec]
    /// What it needs from its dependencies.
    public var input: InputRequirement
    /// What its result provides to dependents.
    public var produces: Set<DataKind>
    /// Makes the action for one operation instance from its checked parameters.
    public var makeAction: @Sendable (OperationSetup) throws -> any TaskAction

    /// Declares an operation type.
    public init(
        name: String, summary: String, parameters: [ParameterSpec] = [],
        input: InputRequirement = .none, produces: Set<DataKind> = [],
        makeAction: @escaping @Sendable (OperationSetup) throws -> any TaskAction
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.input = input
        self.produces = produces
        self.makeAction = makeAction
    }

    /// The declaration of parameter `name`, if it has one.
    public func parameter(named name: String) -> ParameterSpec? {
        parameters.first { $0.name == name }
    }
}

/// Everything an operation type needs to make the action of one instance.
public struct OperationSetup: Sendable {
    /// The instance id, e.g. `save[lake]`.
    public var id: String
    /// Its checked parameters, defaults filled in.
    public var parameters: Parameters
    /// The directory of the pipeline file: relative input paths start here.
    public var pipelineDirectory: String
    /// The run's output directory: relative output paths start here.
    public var outputDirectory: String
    /// The environment the pipeline was loaded with (for programs, keys from `key_env`, …).
    public var environment: [String: String]

    /// Creates a setup.
    public init(
        id: String, parameters: Parameters, pipelineDirectory: String, outputDirectory: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.id = id
        self.parameters = parameters
        self.pipelineDirectory = pipelineDirectory
        self.outputDirectory = outputDirectory
        self.environment = environment
    }
}
