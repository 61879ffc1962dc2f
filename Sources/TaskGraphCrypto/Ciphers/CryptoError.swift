import TaskGraphCore

/// Why `encrypt` or `decrypt` failed. Messages name where a key came from, never the key.
public enum CryptoError: Error, Equatable, Sendable {
    /// Neither or both of `key_file` and `key_env` were set.
    case keySourceNotChosen
    /// The key file could not be read.
    case keyFileUnreadable(path: String, reason: String)
    /// The environment variable holding the key is not set or empty.
    case keyVariableMissing(name: String)
    /// The key is not in a recognised form, or not 256 bits long.
    case keyMalformed(source: String, expected: String, byteCount: Int)
    /// The input is too short to hold a nonce and a tag, so it cannot be encrypted data.
    case inputTooShort(byteCount: Int, minimum: Int)
    /// The tag did not match: the key is wrong or the data was changed.
    case authenticationFailed
}

extension CryptoError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .keySourceNotChosen:
            "set exactly one of 'key_file' and 'key_env'"
        case .keyFileUnreadable(let path, let reason):
            "cannot read key file '\(path)': \(reason)"
        case .keyVariableMissing(let name):
            "environment variable '\(name)' holding the key is not set"
        case .keyMalformed(let source, let expected, let byteCount):
            "\(source) must hold \(expected); it holds \(byteCount) bytes"
        case .inputTooShort(let byteCount, let minimum):
            "input is \(byteCount) bytes, shorter than the \(minimum) bytes of nonce and tag: not encrypted data"
        case .authenticationFailed:
            "authentication failed: wrong key or corrupted data"
        }
    }
}

extension CryptoError: RetryClassifying {
    /// Never: the same key and input fail the same way every time.
    public var isRetryable: Bool { false }
}
