import Foundation

/// Builds a payload in the conventions of docs/results.md: integers unsigned and big-endian,
/// strings and byte fields as a `u64` length followed by the bytes.
public struct ResultWriter: Sendable {
    /// What was written so far.
    public private(set) var data = Data()

    /// An empty payload with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        data.reserveCapacity(capacity)
    }

    /// A structured payload: `version`, then what `body` writes.
    public static func payload(version: UInt8, _ body: (inout ResultWriter) -> Void) -> Data {
        var writer = ResultWriter()
        writer.append(version)
        body(&writer)
        return writer.data
    }

    /// Appends one byte.
    public mutating func append(_ value: UInt8) {
        data.append(value)
    }

    /// Appends 4 bytes, big-endian.
    public mutating func append(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    /// Appends 8 bytes, big-endian.
    public mutating func append(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    /// Appends `string` as its UTF-8 length (`u64`) and its UTF-8 bytes, unnormalised.
    public mutating func append(string: String) {
        let utf8 = Array(string.utf8)
        append(UInt64(utf8.count))
        data.append(contentsOf: utf8)
    }

    /// Appends `bytes` as their length (`u64`) and the bytes.
    public mutating func append(lengthPrefixed bytes: some DataProtocol) {
        append(UInt64(bytes.count))
        data.append(contentsOf: bytes)
    }

    /// Appends `bytes` as they are, with no length: only for a field whose size the layout
    /// already fixes (magic numbers, pixels whose count the header gives).
    public mutating func append(raw bytes: some DataProtocol) {
        data.append(contentsOf: bytes)
    }
}
