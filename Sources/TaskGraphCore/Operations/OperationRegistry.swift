/// The operation types a pipeline may use, by name, and the remote executors it may name.
public struct OperationRegistry: Sendable {
    /// Every registered type, by name.
    public private(set) var types: [String: OperationType] = [:]
    /// Every registered remote executor, in the order registered.
    public private(set) var executors: [ExecutorDeclaration] = []
    /// What the format module checks a pipeline against: every type's declaration and every
    /// executor, kept with `types` and `executors`.
    public private(set) var declarations = OperationDeclarations()

    /// A registry holding `types`.
    public init(_ types: [OperationType] = []) {
        for type in types { register(type) }
    }

    /// The generic operations of the core: `group`, `exec`, `load` and `save` (bytes only).
    public static let core = OperationRegistry(CoreOperations.types())

    /// Adds or replaces a type.
    public mutating func register(_ type: OperationType) {
        types[type.name] = type
        declarations.types[type.name] = type.declaration
    }

    /// Adds a remote executor, or replaces the one of the same name.
    public mutating func register(_ executor: ExecutorDeclaration) {
        if let index = executors.firstIndex(where: { $0.name == executor.name }) {
            executors[index] = executor
        } else {
            executors.append(executor)
        }
        declarations.executors = executors
    }

    /// The names `executor:` accepts: `local`, then each registered executor's.
    public var executorNames: [String] { declarations.executorNames }

    /// The type called `name`, if registered.
    public subscript(name: String) -> OperationType? { types[name] }

    /// `setup` checked as `validate` checks an operation in a pipeline file: its type is
    /// registered, it sets only parameters the type has, each to a value the type accepts, and
    /// every required one; the type's defaults are filled in, as the planner fills them.
    /// - Throws: `OperationError.unknownType`, `.unknownParameter` (with a suggestion),
    ///   `.invalidParameterValue` or `.missingParameter`.
    public func check(_ setup: OperationSetup) throws(OperationError) -> OperationSetup {
        guard let type = types[setup.type] else { throw .unknownType(setup.type) }
        var setup = setup
        setup.parameters = try type.checked(setup.parameters)
        return setup
    }

    /// The action of `setup`, made by its type, carrying the setup (checked by `check(_:)`):
    /// how a setup planned elsewhere (a cache, a cluster worker) becomes work again, and how a
    /// program adds a built-in operation to its own graph, keyed as the same operation in a
    /// pipeline file.
    /// - Throws: what `check(_:)` throws, or whatever the type's `makeAction` throws.
    public func makeAction(for setup: OperationSetup) throws -> ConfiguredAction {
        let setup = try check(setup)
        guard let type = types[setup.type] else { throw OperationError.unknownType(setup.type) }
        return ConfiguredAction(setup: setup, action: try type.makeAction(setup))
    }

    /// Every type, sorted by name.
    public var sorted: [OperationType] { types.values.sorted { $0.name < $1.name } }
}
