import Foundation

/// A result in its serialised form: its kind and its payload. `encoded` is the canonical
/// encoding of docs/results.md (magic, format version, kind, payload), what a store writes and
/// what a result's `digest` hashes.
public struct SerializedResult: Hashable, Sendable {
    /// The first bytes of every encoded result: `TGRS`.
    public static let magic: [UInt8] = Array("TGRS".utf8)
    /// The version of the envelope and digest definition this build writes and reads.
    public static let formatVersion: UInt8 = 1
    /// The longest kind name, in bytes.
    public static let maximumKindLength = 64

    /// The result's kind, e.g. `bytes`.
    public let kind: String
    /// The payload `serialized()` wrote.
    public let payload: Data

    /// Pairs a kind with its payload.
    /// - Throws: `ResultCodingError.invalidKindName`.
    public init(kind: String, payload: Data) throws {
        try Self.checkKindName(kind)
        self.kind = kind
        self.payload = payload
    }

    /// The serialised form of `result`.
    /// - Throws: what `serialized()` throws, `ResultCodingError.invalidKindName`.
    public init(of result: any OperationResult) async throws {
        try self.init(kind: type(of: result).kind, payload: try await result.serialized())
    }

    /// Reads an encoded result.
    /// - Throws: `ResultCodingError` when `encoded` is not one, is truncated or is followed by
    ///   other bytes.
    public init(encoded: Data) throws {
        var reader = ResultReader(encoded, subject: "serialised result")
        try reader.readMagic(Self.magic)
        try reader.readVersion(supported: Self.formatVersion)
        let kindBytes = try reader.readLengthPrefixed("kind")
        let kind = String(decoding: kindBytes, as: UTF8.self)
        guard kindBytes.count <= Self.maximumKindLength, Self.isKindName(kindBytes) else {
            throw ResultCodingError.invalidKindName(kind)
        }
        let payload = try reader.readLengthPrefixed("payload")
        try reader.finish()
        try self.init(kind: kind, payload: payload)
    }

    /// Reads the payload as a `Result`, for a reader that knows the type it expects.
    /// - Throws: `ResultCodingError.kindMismatch` when the payload is of another kind, or the
    ///   type's decoding error.
    public func decode<Result: OperationResult>(as type: Result.Type) throws -> Result {
        guard kind == Result.kind else { throw ResultCodingError.kindMismatch(expected: Result.kind, found: kind) }
        return try Result(serialized: payload)
    }

    /// The canonical encoding: `header(kind:payloadCount:)` followed by the payload.
    public var encoded: Data {
        // The kind was checked when this value was made.
        var data = try! Self.header(kind: kind, payloadCount: payload.count)
        data.append(payload)
        return data
    }

    /// The SHA-256 of `encoded`, the digest of the result.
    public var digest: ContentDigest {
        var hasher = try! ContentHasher(resultKind: kind, payloadCount: payload.count)
        hasher.update(payload)
        return hasher.finalize()
    }

    /// Everything of the encoding before the payload bytes: magic, format version, kind (`u64`
    /// length, UTF-8) and the payload's length (`u64`).
    /// - Throws: `ResultCodingError.invalidKindName`.
    public static func header(kind: String, payloadCount: Int) throws -> Data {
        try checkKindName(kind)
        var writer = ResultWriter(capacity: magic.count + 1 + 8 + kind.utf8.count + 8)
        writer.append(raw: magic)
        writer.append(formatVersion)
        writer.append(string: kind)
        writer.append(UInt64(payloadCount))
        return writer.data
    }

    /// Throws unless `kind` is 1 to 64 bytes of `a-z`, `0-9`, `.`, `-`, `_`.
    static func checkKindName(_ kind: String) throws {
        guard kind.utf8.count <= maximumKindLength, isKindName(kind.utf8) else {
            throw ResultCodingError.invalidKindName(kind)
        }
    }

    /// Whether `bytes` is a nonempty run of `a-z`, `0-9`, `.`, `-`, `_`.
    private static func isKindName(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }
}
