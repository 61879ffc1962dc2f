import Foundation

/// The result of an operation that produces nothing, such as `group`.
public struct EmptyResult: OperationResult, Codable, Hashable {
    /// Creates the empty result.
    public init() {}

    /// An empty string: nothing to report.
    public var summary: String { "" }

    /// `empty`.
    public static let kind = "empty"

    /// No bytes.
    public func serialized() -> Data { Data() }

    /// The digest every empty result has (a pipeline of many `group`s needs it once per node).
    public var digest: ContentDigest {
        get throws { try Self.emptyDigest.get() }
    }

    private static let emptyDigest = Result<ContentDigest, any Error> {
        var hasher = try ContentHasher(resultKind: kind, payloadCount: 0)
        return hasher.finalize()
    }

    /// Reads the empty payload.
    /// - Throws: `ResultCodingError.trailingBytes` unless `payload` is empty.
    public init(serialized payload: Data) throws {
        try ResultReader(payload, kind: Self.kind).finish()
    }
}
