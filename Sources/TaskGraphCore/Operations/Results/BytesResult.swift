import Foundation

/// Bytes held in memory.
public struct BytesResult: BytesProvider, Codable, Hashable {
    /// The bytes.
    public var data: Data

    /// Wraps `data`.
    public init(_ data: Data) {
        self.data = data
    }

    /// The size, e.g. `2.4 MB`.
    public var summary: String { ByteCountText.format(data.count) }

    /// `bytes`.
    public static let kind = "bytes"

    /// The bytes themselves.
    public func serialized() -> Data { data }

    /// Takes the payload as the bytes; every payload is valid.
    public init(serialized payload: Data) {
        self.init(payload)
    }
}
