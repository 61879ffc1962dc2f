import Foundation

/// Reads a payload written in the conventions of docs/results.md, field by field; every read
/// checks the length left first, so truncated or garbled data gives a `ResultCodingError`,
/// never a crash.
public struct ResultReader {
    /// What is being read, for messages: `'file.loaded' result`.
    public let subject: String
    /// The bytes.
    private let data: Data
    /// Bytes read so far.
    public private(set) var offset = 0

    /// Reads the payload of a result of `kind`.
    public init(_ data: Data, kind: String) {
        self.init(data, subject: "'\(kind)' result")
    }

    /// Reads `data`, naming it `subject` in errors.
    public init(_ data: Data, subject: String) {
        self.data = data
        self.subject = subject
    }

    /// Reads a structured payload of `kind`: checks its `version`, lets `body` read the fields,
    /// then checks that nothing follows them.
    /// - Throws: `ResultCodingError` from the version check, `body` or the final check.
    public static func read<Value>(
        _ payload: Data, kind: String, version: UInt8, _ body: (inout ResultReader) throws -> Value
    ) throws -> Value {
        var reader = ResultReader(payload, kind: kind)
        try reader.readVersion(supported: version)
        let value = try body(&reader)
        try reader.finish()
        return value
    }

    /// Bytes not read yet.
    public var remaining: Int { data.count - offset }

    /// The next `count` bytes.
    /// - Throws: `ResultCodingError.truncated` naming `field`.
    public mutating func read(count: UInt64, _ field: String) throws -> Data {
        guard count <= UInt64(remaining) else {
            throw ResultCodingError.truncated(
                subject: subject, field: field, offset: offset, needed: count, remaining: remaining)
        }
        let start = data.startIndex + offset
        let bytes = data[start..<(start + Int(count))]
        offset += Int(count)
        return Data(bytes)
    }

    /// One byte.
    public mutating func readUInt8(_ field: String) throws -> UInt8 {
        try read(count: 1, field).first!
    }

    /// 4 bytes, big-endian.
    public mutating func readUInt32(_ field: String) throws -> UInt32 {
        try read(count: 4, field).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// 8 bytes, big-endian.
    public mutating func readUInt64(_ field: String) throws -> UInt64 {
        try read(count: 8, field).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A `u64` length and that many bytes.
    public mutating func readLengthPrefixed(_ field: String) throws -> Data {
        let count = try readUInt64(field + " length")
        return try read(count: count, field)
    }

    /// A `u64` length and that many bytes of UTF-8.
    /// - Throws: `ResultCodingError.invalidValue` when the bytes are not UTF-8.
    public mutating func readString(_ field: String) throws -> String {
        let bytes = try readLengthPrefixed(field)
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw ResultCodingError.invalidValue(subject: subject, field: field, reason: "is not valid UTF-8")
        }
        return string
    }

    /// A layout version byte, which must be `supported`.
    /// - Throws: `ResultCodingError.unsupportedVersion`.
    public mutating func readVersion(supported: UInt8) throws {
        let version = try readUInt8("version")
        guard version == supported else {
            throw ResultCodingError.unsupportedVersion(
                subject: subject, version: Int(version), supported: Int(supported))
        }
    }

    /// Magic bytes, which must be `expected`.
    /// - Throws: `ResultCodingError.badMagic`, also when the data is shorter than the magic.
    public mutating func readMagic(_ expected: [UInt8]) throws {
        let start = offset
        guard remaining >= expected.count, try read(count: UInt64(expected.count), "magic").elementsEqual(expected)
        else {
            offset = start
            throw ResultCodingError.badMagic(subject: subject, expected: String(decoding: expected, as: UTF8.self))
        }
    }

    /// Checks that every byte was read.
    /// - Throws: `ResultCodingError.trailingBytes`.
    public func finish() throws {
        guard remaining == 0 else { throw ResultCodingError.trailingBytes(subject: subject, count: remaining) }
    }
}
