/// Why a result could not be serialised or read back. Every case reads as a complete sentence.
///
/// `subject` names what was being read: `serialised result` for the envelope
/// (`SerializedResult`), `'<kind>' result` for a payload.
public enum ResultCodingError: Error, Equatable, Sendable {
    /// The data does not start with the magic bytes of its layout.
    case badMagic(subject: String, expected: String)
    /// The layout's version is one this build does not read.
    case unsupportedVersion(subject: String, version: Int, supported: Int)
    /// The data ends before `field`, which needs `needed` bytes at `offset`.
    case truncated(subject: String, field: String, offset: Int, needed: UInt64, remaining: Int)
    /// Bytes follow the last field.
    case trailingBytes(subject: String, count: Int)
    /// A field holds a value the layout does not allow.
    case invalidValue(subject: String, field: String, reason: String)
    /// A kind name outside the allowed characters or length.
    case invalidKindName(String)
    /// A kind no registered type reads.
    case unknownKind(String, known: [String])
    /// A payload of one kind handed to the type of another.
    case kindMismatch(expected: String, found: String)
    /// A value its layout cannot hold, found while serialising.
    case unrepresentable(subject: String, reason: String)
}

extension ResultCodingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .badMagic(let subject, let expected):
            "\(subject) does not start with '\(expected)'"
        case .unsupportedVersion(let subject, let version, let supported):
            "\(subject) has layout version \(version); this build reads version \(supported)"
        case .truncated(let subject, let field, let offset, let needed, let remaining):
            "truncated \(subject): \(field) needs \(needed) bytes at offset \(offset), only \(remaining) remain"
        case .trailingBytes(let subject, let count):
            "\(subject) has \(count) unexpected bytes after its last field"
        case .invalidValue(let subject, let field, let reason):
            "invalid \(subject): \(field) \(reason)"
        case .invalidKindName(let name):
            "'\(name)' is not a result kind name (1 to 64 of a-z, 0-9, '.', '-', '_')"
        case .unknownKind(let name, let known):
            "unknown result kind '\(name)'; known kinds: " + (known.isEmpty ? "none" : known.joined(separator: ", "))
        case .kindMismatch(let expected, let found):
            "expected a '\(expected)' result, found '\(found)'"
        case .unrepresentable(let subject, let reason):
            "cannot serialise \(subject): \(reason)"
        }
    }
}
