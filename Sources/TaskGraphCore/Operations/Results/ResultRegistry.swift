import Foundation

/// The result kinds a store can read back, by name: each module exports its kinds (the core's
/// in `CoreOperations.resultKinds`, imaging's in `ImagingOperations.resultKinds`, …) and the
/// program assembles them, as it does the operation types.
public struct ResultRegistry: Sendable {
    /// Every registered kind, by name.
    public private(set) var kinds: [String: ResultKind] = [:]

    /// A registry holding `kinds`.
    public init(_ kinds: [ResultKind] = []) {
        for kind in kinds { register(kind) }
    }

    /// The results of the core: `empty`, `bytes`, `file.loaded`, `file.written`, `process.output`.
    public static let core = ResultRegistry(CoreOperations.resultKinds)

    /// Adds or replaces a kind.
    public mutating func register(_ kind: ResultKind) {
        kinds[kind.name] = kind
    }

    /// The kind called `name`, if registered.
    public subscript(name: String) -> ResultKind? { kinds[name] }

    /// Every kind's name, sorted.
    public var names: [String] { kinds.keys.sorted() }

    /// Reads `serialized` back into a value of its kind's type.
    /// - Throws: `ResultCodingError.unknownKind`, or the kind's decoding error.
    public func decode(_ serialized: SerializedResult) throws -> any OperationResult {
        guard let kind = kinds[serialized.kind] else {
            throw ResultCodingError.unknownKind(serialized.kind, known: names)
        }
        return try kind.decode(serialized.payload)
    }

    /// Reads an encoded result (`SerializedResult.encoded`) back into a value.
    /// - Throws: `ResultCodingError` when it is not an encoded result, its kind is unknown or
    ///   its payload does not decode.
    public func decode(encoded: Data) throws -> any OperationResult {
        try decode(try SerializedResult(encoded: encoded))
    }
}
