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

    /// Every type, sorted by name.
    public var sorted: [OperationType] { types.values.sorted { $0.name < $1.name } }
}
