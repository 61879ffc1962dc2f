import Foundation

/// How to read back one kind of result: its name and the type whose `init(serialized:)` reads it.
public struct ResultKind: Sendable {
    /// The kind's name, e.g. `file.loaded`.
    public let name: String
    /// The type that reads it.
    public let type: any OperationResult.Type
    /// Reads a payload of this kind.
    private let reader: @Sendable (Data) throws -> any OperationResult

    /// The kind of `type`, read by its `init(serialized:)`.
    /// - Precondition: `Result.kind` is a valid kind name (1 to 64 of a-z, 0-9, `.`, `-`, `_`).
    public init<Result: OperationResult>(_ type: Result.Type) {
        precondition(
            (try? SerializedResult.checkKindName(Result.kind)) != nil, "'\(Result.kind)' is not a result kind name")
        name = Result.kind
        self.type = type
        reader = { try Result(serialized: $0) }
    }

    /// Reads `payload` into a value of this kind.
    /// - Throws: `ResultCodingError` from the type's decoder.
    public func decode(_ payload: Data) throws -> any OperationResult {
        try reader(payload)
    }
}
