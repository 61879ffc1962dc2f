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

    /// The action of `setup`, made by its type: how a setup planned elsewhere (a cache, a cluster
    /// worker) becomes work again.
    /// - Throws: `OperationError.unknownType` if no type has the setup's type name, or whatever
    ///   the type's `makeAction` throws.
    public func makeAction(for setup: OperationSetup) throws -> any TaskAction {
        guard let type = types[setup.type] else { throw OperationError.unknownType(setup.type) }
        return try type.makeAction(setup)
    }

    /// Every type, sorted by name.
    public var sorted: [OperationType] { types.values.sorted { $0.name < $1.name } }
}
