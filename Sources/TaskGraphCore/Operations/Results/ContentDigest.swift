import Foundation

/// A SHA-256 digest of content, written `sha256:` and 64 lowercase hexadecimal digits.
///
/// Unlike `Hashable`, which Swift seeds differently in every process, a digest is the same on
/// every machine and in every run: it names content in logs, events and stores.
public struct ContentDigest: Hashable, Sendable {
    /// The algorithm's name, the prefix of `description`.
    public static let algorithm = "sha256"
    /// How many bytes a digest has.
    public static let byteCount = 32

    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// A digest of `bytes`, or nil unless there are exactly 32.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = Array(bytes)
    }

    /// Reads `sha256:` and 64 hexadecimal digits (either case), or nil.
    public init?(_ text: String) {
        let prefix = Self.algorithm + ":"
        guard text.hasPrefix(prefix) else { return nil }
        let hex = Array(text.utf8.dropFirst(prefix.utf8.count))
        guard hex.count == 2 * Self.byteCount else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        for index in stride(from: 0, to: hex.count, by: 2) {
            guard let high = Self.nibble(hex[index]), let low = Self.nibble(hex[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// The SHA-256 of `data`.
    public static func sha256(of data: some DataProtocol) -> ContentDigest {
        var hasher = ContentHasher()
        hasher.update(data)
        return hasher.finalize()
    }

    /// The 64 lowercase hexadecimal digits.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(2 * bytes.count)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The value of one hexadecimal digit.
    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension ContentDigest: CustomStringConvertible {
    /// `sha256:` and 64 lowercase hexadecimal digits.
    public var description: String { Self.algorithm + ":" + hex }
}

extension ContentDigest: Codable {
    /// Reads the `sha256:<hex>` string form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let digest = ContentDigest(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not sha256: and 64 hexadecimal digits")
        }
        self = digest
    }

    /// Writes the `sha256:<hex>` string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
