import Foundation

/// The result of an operation that produces nothing, such as `group`.
public struct EmptyArtifact: Artifact, Codable, Hashable {
    /// Creates the empty result.
    public init() {}

    /// An empty string: nothing to report.
    public var summary: String { "" }

    /// `empty`.
    public static let kind = "empty"

    /// No bytes.
    public func serialized() -> Data { Data() }

    /// Reads the empty payload.
    /// - Throws: `ResultCodingError.trailingBytes` unless `payload` is empty.
    public init(serialized payload: Data) throws {
        try ResultReader(payload, kind: Self.kind).finish()
    }
}
