import Foundation

/// Everything that decides an operation instance's result, as named text values: its key is the
/// SHA-256 of their canonical encoding (docs/cache.md).
///
/// Names say what a component is, so two keys can be compared part by part to explain a change:
/// `operation`, `version`, `parameter.<name>`, `environment.<NAME>`, `input.<id>`,
/// `output.<absolute path>`, `file.<path>`, `program`, and `action.<name>` for a program's own
/// cacheable actions. Values
/// that may be secret (keys, tokens, header values) enter only as their digest
/// (`addSecret`), so neither the key nor the stored components reveal them.
public struct KeyComponents: Hashable, Sendable, Codable {
    /// One named value.
    public struct Component: Hashable, Sendable, Codable {
        /// What the value is, e.g. `parameter.intensity`.
        public var name: String
        /// The value in canonical text form, e.g. `0.8` or `sha256:…`.
        public var value: String
    }

    /// The version of the encoding below; part of every key.
    public static let encodingVersion = 2
    /// The bytes every encoding starts with.
    static let magic = "taskgraph-key-\(encodingVersion)\n"

    /// The components, in the order they were added (a name is present at most once).
    public private(set) var components: [Component] = []

    /// No components.
    public init() {}

    /// Adds `name` with `value`; a second value for a name replaces the first in place.
    public mutating func add(_ name: String, _ value: String) {
        if let index = components.firstIndex(where: { $0.name == name }) {
            components[index].value = value
        } else {
            components.append(Component(name: name, value: value))
        }
    }

    /// Adds `name` with `value` as `add` does, for a caller that knows `name` is not present
    /// yet (it keeps the names it added, as a decoder of a stored encoding does): no search.
    package mutating func append(newName name: String, _ value: String) {
        components.append(Component(name: name, value: value))
    }

    /// Adds `name` with the digest of `value`: for values that must never be stored.
    public mutating func addSecret(_ name: String, _ value: String) {
        add(name, ContentDigest.sha256(of: Data(value.utf8)).description)
    }

    /// The value of `name`, if present.
    public subscript(name: String) -> String? {
        components.first { $0.name == name }?.value
    }

    /// The canonical encoding: `taskgraph-key-2\n`, then for each component in order its name
    /// and its value, each as a 4-byte big-endian length and UTF-8 bytes.
    public var encoded: Data { Data(encodedBytes) }

    /// `encoded`, built in one buffer of its final size.
    private var encodedBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.magic.utf8.count + components.reduce(0) { $0 + 8 + $1.name.utf8.count + $1.value.utf8.count })
        bytes.append(contentsOf: Self.magic.utf8)
        for component in components {
            Self.appendLengthPrefixed(component.name, to: &bytes)
            Self.appendLengthPrefixed(component.value, to: &bytes)
        }
        return bytes
    }

    /// The key: the SHA-256 of `encoded`.
    public var key: ContentDigest { ContentDigest.sha256(of: encodedBytes) }

    private static func appendLengthPrefixed(_ text: String, to bytes: inout [UInt8]) {
        let count = UInt32(text.utf8.count)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((count >> UInt32(shift)) & 0xff)) }
        bytes.append(contentsOf: text.utf8)
    }
}
