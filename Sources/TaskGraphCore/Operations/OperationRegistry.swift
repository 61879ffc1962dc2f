/// The operation types a pipeline may use, by name.
public struct OperationRegistry: Sendable {
    /// Every registered type, by name.
    public private(set) var types: [String: OperationType] = [:]

    /// A registry holding `types`.
    public init(_ types: [OperationType] = []) {
        for type in types { register(type) }
    }

    /// The generic operations of the core: `group`, `exec`, `load` and `save` (bytes only).
    public static let core = OperationRegistry(CoreOperations.types())

    /// Adds or replaces a type.
    public mutating func register(_ type: OperationType) {
        types[type.name] = type
    }

    /// The type called `name`, if registered.
    public subscript(name: String) -> OperationType? { types[name] }

    /// The action of `setup`, made by its type, carrying the setup (its parameters' defaults
    /// filled in, as the planner does): how a setup planned elsewhere (a cache, a cluster worker)
    /// becomes work again, and how a program adds a built-in operation to its own graph,
    /// keyed as the same operation in a pipeline file.
    /// - Throws: `OperationError.unknownType` if no type has the setup's type name,
    ///   `.unknownParameter` for a parameter the type does not have, or whatever the type's
    ///   `makeAction` throws.
    public func makeAction(for setup: OperationSetup) throws -> ConfiguredAction {
        guard let type = types[setup.type] else { throw OperationError.unknownType(setup.type) }
        var setup = setup
        for name in setup.parameters.values.keys.sorted() where type.parameter(named: name) == nil {
            throw OperationError.unknownParameter(
                type: type.name, name: name, suggestion: Suggestion.closest(to: name, in: type.parameters.map(\.name)))
        }
        for parameter in type.parameters where setup.parameters.values[parameter.name] == nil {
            if let value = parameter.defaultValue { setup.parameters.values[parameter.name] = value }
        }
        return ConfiguredAction(setup: setup, action: try type.makeAction(setup))
    }

    /// Every type, sorted by name.
    public var sorted: [OperationType] { types.values.sorted { $0.name < $1.name } }
}
