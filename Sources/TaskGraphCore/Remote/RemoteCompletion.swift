import Foundation

/// How a remote attempt ended, as its worker wrote it (the completion file of docs/cluster.md):
/// the record of its result, or the failure. The driver takes a job's end from this file, not
/// from the scheduler's state alone.
public enum RemoteCompletion: Hashable, Sendable, Codable {
    /// The operation succeeded; its result and files are in the store as `record` says.
    case succeeded(ActionRecord)
    /// The operation failed with this message.
    case failed(String)

    /// The file's contents: JSON with sorted keys.
    /// - Throws: `EncodingError`.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a completion file's contents.
    /// - Throws: `DecodingError` when it is not one.
    public init(encoded data: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: data)
    }
}
