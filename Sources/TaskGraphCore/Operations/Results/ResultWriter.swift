import Foundation

/// Builds a payload in the conventions of docs/results.md: integers unsigned and big-endian,
/// strings and byte fields as a `u64` length followed by the bytes.
public struct ResultWriter: Sendable {
    /// What was written so far. Kept as an array: appending many small fields to `Data` costs
    /// several times more. The appends are inlinable so that the store's encoders, in another
    /// module, get them inlined (and the generic ones specialised) rather than as a call for
    /// each field.
    @usableFromInline var bytes: [UInt8] = []

    /// What was written so far.
    public var data: Data { Data(bytes) }

    /// An empty payload with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// A structured payload: `version`, then what `body` writes.
    public static func payload(version: UInt8, _ body: (inout ResultWriter) -> Void) -> Data {
        var writer = ResultWriter()
        writer.append(version)
        body(&writer)
        return writer.data
    }

    /// Appends one byte.
    @inlinable
    public mutating func append(_ value: UInt8) {
        bytes.append(value)
    }

    /// Appends 4 bytes, big-endian.
    @inlinable
    public mutating func append(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends 8 bytes, big-endian.
    @inlinable
    public mutating func append(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `string` as its UTF-8 length (`u64`) and its UTF-8 bytes, unnormalised.
    @inlinable
    public mutating func append(string: String) {
        append(UInt64(string.utf8.count))
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `bytes` as their length (`u64`) and the bytes.
    @inlinable
    public mutating func append(lengthPrefixed bytes: some DataProtocol) {
        append(UInt64(bytes.count))
        append(raw: bytes)
    }

    /// Appends `bytes` as they are, with no length: only for a field whose size the layout
    /// already fixes (magic numbers, pixels whose count the header gives).
    @inlinable
    public mutating func append(raw bytes: some DataProtocol) {
        for region in bytes.regions { region.withUnsafeBytes { self.bytes.append(contentsOf: $0) } }
    }
}
