/// What a pipeline can know of an operation type (`op: exec`) without making its action: its
/// parameters, what it consumes and produces, and the environment variables it reads. The
/// reader and the planner check a pipeline against declarations; `OperationType` in the core
/// adds how to make the action of one instance.
public struct OperationDeclaration: Sendable {
    /// The name pipelines write after `op:`.
    public var name: String
    /// One line for `list-ops`, help and docs/pipeline.md.
    public var summary: String
    /// The parameters it accepts.
    public var parameters: [ParameterSpec]
    /// Parameters it no longer accepts, with what to write instead: a pipeline using one gets
    /// this advice as its error, e.g. `["inherit_env": "name the variables in 'env_passthrough'"]`.
    public var removedParameters: [String: String]
    /// What it needs from its dependencies.
    public var input: InputRequirement
    /// A boolean parameter that, set to true, makes an instance need `requirement` instead of
    /// `input` (`exec`'s `stdin: true`).
    public var inputSwitch: (parameter: String, requirement: InputRequirement)?
    /// What its result provides to dependents.
    public var produces: Set<DataKind>
    /// The names of the environment variables an instance reads, given its checked parameters;
    /// only these reach its setup.
    public var environmentNames: @Sendable (Parameters) -> [String]

    /// Declares an operation type.
    public init(
        name: String, summary: String, parameters: [ParameterSpec] = [],
        removedParameters: [String: String] = [:],
        input: InputRequirement = .none, inputSwitch: (parameter: String, requirement: InputRequirement)? = nil,
        produces: Set<DataKind> = [],
        environmentNames: @escaping @Sendable (Parameters) -> [String] = { _ in [] }
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.removedParameters = removedParameters
        self.input = input
        self.inputSwitch = inputSwitch
        self.produces = produces
        self.environmentNames = environmentNames
    }

    /// What an instance with `parameters` needs from its dependencies.
    public func input(for parameters: Parameters) -> InputRequirement {
        guard let inputSwitch, parameters.boolean(inputSwitch.parameter) == true else { return input }
        return inputSwitch.requirement
    }

    /// The declaration of parameter `name`, if it has one.
    public func parameter(named name: String) -> ParameterSpec? {
        parameters.first { $0.name == name }
    }

    /// The variables of `environment` that an instance with `parameters` reads: those named by
    /// `environmentNames` that are set.
    public func declaredEnvironment(
        for parameters: Parameters, in environment: [String: String]
    ) -> [String: String] {
        Self.variables(named: environmentNames(parameters), in: environment)
    }

    /// The variables of `environment` called `names` that are set.
    package static func variables(named names: [String], in environment: [String: String]) -> [String: String] {
        var found: [String: String] = [:]
        for name in names {
            found[name] = environment[name]
        }
        return found
    }
}
