/// An operation type a pipeline can use (`op: exec`): its declaration (parameters, what it
/// consumes and produces, the environment variables it reads), which the format module checks
/// pipelines against, and how to make the action of one instance.
public struct OperationType: Sendable {
    /// What a pipeline can know of it without making its action.
    public var declaration: OperationDeclaration
    /// Makes the action for one operation instance from its setup, and from nothing else.
    public var makeAction: @Sendable (OperationSetup) throws -> any TaskAction

    /// Declares an operation type.
    public init(
        name: String, summary: String, parameters: [ParameterSpec] = [],
        removedParameters: [String: String] = [:],
        input: InputRequirement = .none, inputSwitch: (parameter: String, requirement: InputRequirement)? = nil,
        produces: Set<DataKind> = [],
        environmentNames: @escaping @Sendable (Parameters) -> [String] = { _ in [] },
        makeAction: @escaping @Sendable (OperationSetup) throws -> any TaskAction
    ) {
        self.init(
            OperationDeclaration(
                name: name, summary: summary, parameters: parameters, removedParameters: removedParameters,
                input: input, inputSwitch: inputSwitch, produces: produces, environmentNames: environmentNames),
            makeAction: makeAction)
    }

    /// The type `declaration` declares, whose instances' actions `makeAction` makes.
    public init(
        _ declaration: OperationDeclaration, makeAction: @escaping @Sendable (OperationSetup) throws -> any TaskAction
    ) {
        self.declaration = declaration
        self.makeAction = makeAction
    }

    /// The name pipelines write after `op:`.
    public var name: String {
        get { declaration.name }
        set { declaration.name = newValue }
    }
    /// One line for `list-ops`, help and docs/pipeline.md.
    public var summary: String {
        get { declaration.summary }
        set { declaration.summary = newValue }
    }
    /// The parameters it accepts.
    public var parameters: [ParameterSpec] {
        get { declaration.parameters }
        set { declaration.parameters = newValue }
    }
    /// Parameters it no longer accepts, with what to write instead.
    public var removedParameters: [String: String] {
        get { declaration.removedParameters }
        set { declaration.removedParameters = newValue }
    }
    /// What it needs from its dependencies.
    public var input: InputRequirement {
        get { declaration.input }
        set { declaration.input = newValue }
    }
    /// A boolean parameter that, set to true, makes an instance need `requirement` instead of `input`.
    public var inputSwitch: (parameter: String, requirement: InputRequirement)? {
        get { declaration.inputSwitch }
        set { declaration.inputSwitch = newValue }
    }
    /// What its result provides to dependents.
    public var produces: Set<DataKind> {
        get { declaration.produces }
        set { declaration.produces = newValue }
    }
    /// The names of the environment variables an instance reads, given its checked parameters.
    public var environmentNames: @Sendable (Parameters) -> [String] {
        get { declaration.environmentNames }
        set { declaration.environmentNames = newValue }
    }

    /// What an instance with `parameters` needs from its dependencies.
    public func input(for parameters: Parameters) -> InputRequirement { declaration.input(for: parameters) }

    /// The declaration of parameter `name`, if it has one.
    public func parameter(named name: String) -> ParameterSpec? { declaration.parameter(named: name) }

    /// The variables of `environment` that an instance with `parameters` reads: those named by
    /// `environmentNames` that are set.
    public func declaredEnvironment(for parameters: Parameters, in environment: [String: String]) -> [String: String] {
        declaration.declaredEnvironment(for: parameters, in: environment)
    }
}
