import Crypto
import Foundation
import TaskGraphCore

/// A 256-bit key read from a file or an environment variable, in one of the forms users keep keys:
/// 32 raw bytes (files only), 64 hexadecimal characters, or base64 of 32 bytes.
///
/// The forms are told apart by length alone, so detection is unambiguous: a 32-byte file is raw,
/// 64 hex characters decode to 32 bytes, and base64 of 32 bytes is 43 or 44 characters.
struct CipherKey {
    /// Where the key comes from.
    enum Source: Sendable, Hashable {
        /// A file, by resolved path.
        case file(String)
        /// An environment variable, by name.
        case environment(String)

        /// How messages name the source, e.g. `key file 'secret.key'`.
        var displayName: String {
            switch self {
            case .file(let path): "key file '\(path)'"
            case .environment(let name): "environment variable '\(name)'"
            }
        }
    }

    /// The key bytes length for both supported ciphers.
    static let byteCount = 32

    /// The key, in the form the ciphers take.
    let symmetricKey: SymmetricKey

    /// Reads and decodes the key from `source` (blocking: call it off the cooperative pool).
    /// - Throws: `CryptoError` for a missing file or variable or a malformed key.
    init(from source: Source, environment: [String: String]) throws(CryptoError) {
        switch source {
        case .file(let path):
            let contents: Data
            do {
                contents = try FileIO.read(path)
            } catch .readFailed(_, let reason) {
                throw .keyFileUnreadable(path: path, reason: reason)
            } catch {
                throw .keyFileUnreadable(path: path, reason: error.description)
            }
            if contents.count == Self.byteCount {
                symmetricKey = SymmetricKey(data: contents)
                return
            }
            symmetricKey = try Self.decodeText(contents, source: source, rawAllowed: true)
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else { throw .keyVariableMissing(name: name) }
            symmetricKey = try Self.decodeText(Data(value.utf8), source: source, rawAllowed: false)
        }
    }

    /// Decodes hex or base64 text (surrounding whitespace ignored) into a 32-byte key.
    private static func decodeText(_ contents: Data, source: Source, rawAllowed: Bool) throws(CryptoError)
        -> SymmetricKey
    {
        let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count == 2 * byteCount, let bytes = hexBytes(text) {
            return SymmetricKey(data: bytes)
        }
        if let bytes = Data(base64Encoded: text) ?? Data(base64Encoded: text + "="), bytes.count == byteCount {
            return SymmetricKey(data: bytes)
        }
        let expected = (rawAllowed ? "32 raw bytes, " : "") + "64 hex characters or base64 of 32 bytes"
        throw .keyMalformed(source: source.displayName, expected: expected, byteCount: contents.count)
    }

    /// The bytes spelled by `text` in hexadecimal, or nil if it is not hexadecimal.
    private static func hexBytes(_ text: String) -> Data? {
        var bytes = Data(capacity: text.utf8.count / 2)
        var high: UInt8?
        for character in text.utf8 {
            guard let nibble = hexValue(character) else { return nil }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? bytes : nil
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
