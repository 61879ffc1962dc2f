import Foundation
import TaskGraphCore

/// Reads the store's binary files (records, the stat cache, components) field by field, in the
/// conventions of docs/results.md: big-endian integers, strings as a `u64` length and UTF-8.
/// Every read checks the bytes left, so a truncated or garbled file is refused, never a crash.
struct ByteReader {
    /// The bytes do not hold what the layout says.
    struct Malformed: Error {}

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    /// How many bytes were read so far.
    var position: Int { offset }

    /// Reads `bytes`, which must stay valid while the reader is used.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Reads `magic`, then a version byte that must be `version`.
    mutating func header(_ magic: [UInt8], version: UInt8) throws(Malformed) {
        guard try take(magic.count).elementsEqual(magic), try uint8() == version else { throw Malformed() }
    }

    /// One byte.
    mutating func uint8() throws(Malformed) -> UInt8 {
        try take(1)[0]
    }

    /// 4 bytes, big-endian.
    mutating func uint32() throws(Malformed) -> UInt32 {
        try take(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// 8 bytes, big-endian.
    mutating func uint64() throws(Malformed) -> UInt64 {
        try take(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A count of items that follow, each at least `minimumItemSize` bytes: refused when the
    /// bytes left cannot hold that many, so a garbled count reserves nothing.
    mutating func count(minimumItemSize: Int) throws(Malformed) -> Int {
        let count = Int(try uint32())
        guard count * minimumItemSize <= bytes.count - offset else { throw Malformed() }
        return count
    }

    /// A signed 64-bit number, stored as its two's complement bits.
    mutating func int64() throws(Malformed) -> Int64 {
        Int64(bitPattern: try uint64())
    }

    /// A 64-bit IEEE 754 number, stored as its bits.
    mutating func double() throws(Malformed) -> Double {
        Double(bitPattern: try uint64())
    }

    /// 32 raw bytes: a SHA-256 digest.
    mutating func digest() throws(Malformed) -> ContentDigest {
        ContentDigest(bytes: try take(ContentDigest.byteCount))!
    }

    /// 32 raw bytes: the name of the blob a digest names, made without an intermediate digest.
    mutating func entryName() throws(Malformed) -> EntryName {
        EntryName(raw: try take(ContentDigest.byteCount))
    }

    /// A `u64` length and that many bytes of UTF-8.
    mutating func string() throws(Malformed) -> String {
        let count = try uint64()
        guard count <= UInt64(bytes.count - offset) else { throw Malformed() }
        let utf8 = try take(Int(count))
        // ASCII (nearly every id and path) is valid UTF-8 as it is: made into a string without
        // the generic validation, which costs a metadata lookup per call.
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        guard let string = String(validating: utf8, as: UTF8.self) else { throw Malformed() }
        return string
    }

    /// A `u64` length and that many bytes.
    mutating func lengthPrefixed() throws(Malformed) -> Data {
        let count = try uint64()
        guard count <= UInt64(bytes.count - offset) else { throw Malformed() }
        return Data(try take(Int(count)))
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int) throws(Malformed) {
        _ = try take(count)
    }

    /// The next `count` bytes, as a reader of their own.
    mutating func section(_ count: Int) throws(Malformed) -> ByteReader {
        ByteReader(try take(count))
    }

    /// Skips a string without reading it.
    mutating func skipString() throws(Malformed) {
        let count = try uint64()
        guard count <= UInt64(bytes.count - offset) else { throw Malformed() }
        try skip(Int(count))
    }

    /// Checks that every byte was read.
    func finish() throws(Malformed) {
        guard offset == bytes.count else { throw Malformed() }
    }

    private mutating func take(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
        guard count <= bytes.count - offset else { throw Malformed() }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }
}

extension ResultWriter {
    /// Appends a digest's 32 raw bytes.
    mutating func append(digest: ContentDigest) {
        append(raw: digest.bytes)
    }

    /// Appends a signed 64-bit number as its two's complement bits.
    mutating func append(_ value: Int64) {
        append(UInt64(bitPattern: value))
    }

    /// Appends a 64-bit IEEE 754 number as its bits.
    mutating func append(_ value: Double) {
        append(value.bitPattern)
    }

    /// Appends a count of items as a `u32`.
    mutating func append(count: Int) {
        append(UInt32(count))
    }
}
