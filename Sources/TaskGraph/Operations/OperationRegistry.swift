/// The operation types a pipeline may use, by name.
public struct OperationRegistry: Sendable {
    /// Every registered type, by name.
    public private(set) var types: [String: OperationType] = [:]

    /// A registry holding `types`.
    public init(_ types: [OperationType] = []) {
        for type in types { register(type) }
    }

    /// The built-in operation types.
    public static let builtIn = OperationRegistry([
        GroupOperation.type, ExecOperation.type, LoadOperation.type, SaveOperation.type,
        DownloadOperation.type, DecryptOperation.type, EncryptOperation.type,
        ToneOperations.sepia, ToneOperations.grayscale, BlurOperations.blur, BlurOperations.tiltShift,
        GeometryOperations.resize, GeometryOperations.crop, ContactSheetOperation.type,
    ])

    /// Adds or replaces a type.
    public mutating func register(_ type: OperationType) {
        types[type.name] = type
    }

    /// The type called `name`, if registered.
    public subscript(name: String) -> OperationType? { types[name] }

    /// Every type, sorted by name.
    public var sorted: [OperationType] { types.values.sorted { $0.name < $1.name } }
}
