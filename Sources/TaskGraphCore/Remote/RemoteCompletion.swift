import Foundation

/// How a remote attempt ended, as its worker wrote it (the completion file of docs/cluster.md):
/// the record of its result, or the failure. The driver takes a job's end from this file, not
/// from the scheduler's state alone.
public enum RemoteCompletion: Hashable, Sendable, Codable {
    /// The operation succeeded; its result and files are in the store as `record` says.
    case succeeded(ActionRecord)
    /// The operation failed with this message.
    case failed(String)
    /// A fused chain's job: one completion per operation that ran, in the chain's order; the
    /// last may be `failed`, and the operations after it did not run. Only the chain's last
    /// operation's result is stored; the others' records name results that are not.
    case fused([RemoteCompletion])

    /// The failure it reports, if any: the position of the operation that failed (0 but in a
    /// fused chain's job) and its message.
    public var failure: (step: Int, message: String)? {
        switch self {
        case .succeeded: nil
        case .failed(let message): (0, message)
        case .fused(let steps):
            if case .failed(let message)? = steps.last { (steps.count - 1, message) } else { nil }
        }
    }

    /// The records of the operations that succeeded, in order.
    public var records: [ActionRecord] {
        switch self {
        case .succeeded(let record): [record]
        case .failed: []
        case .fused(let steps): steps.flatMap(\.records)
        }
    }

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
