import Foundation

/// Everything that decides an operation instance's result, as named text values: its key is the
/// SHA-256 of their canonical encoding (docs/cache.md).
///
/// Names say what a component is, so two keys can be compared part by part to explain a change:
/// `operation`, `version`, `parameter.<name>`, `environment.<NAME>`, `input.<id>`,
/// `output.<path>` (relative to the output or pipeline directory), `file.<path>`, `program`, and `action.<name>` for a
/// program's own
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
    public static let encodingVersion = 4
    /// The bytes every encoding starts with.
    static let magic = "taskgraph-key-\(encodingVersion)\n"

    /// The components, in the order they were added (a name is present at most once).
    public private(set) var components: [Component] = []
    /// The position of each name in `components`, once there are `indexedFrom` of them (an
    /// `exec` with 50,000 `inputs:` files): below that a search is cheaper than hashing.
    private var positions: [String: Int]?

    /// How many components make `positions` worth keeping.
    static let indexedFrom = 32

    /// No components.
    public init() {}

    /// Adds `name` with `value`; a second value for a name replaces the first in place. With
    /// the index, a new name is hashed once.
    public mutating func add(_ name: String, _ value: String) {
        guard positions != nil else {
            if let index = components.firstIndex(where: { $0.name == name }) {
                components[index].value = value
                return
            }
            components.append(Component(name: name, value: value))
            if components.count == Self.indexedFrom {
                positions = Self.index(of: components, capacity: components.count)
            }
            return
        }
        if let earlier = positions!.updateValue(components.count, forKey: name) {
            positions![name] = earlier
            components[earlier].value = value
        } else {
            components.append(Component(name: name, value: value))
        }
    }

    /// Makes room for `count` components in all, the index included once they will need it:
    /// 50,000 added one by one then grow nothing.
    public mutating func reserveCapacity(_ count: Int) {
        components.reserveCapacity(count)
        guard count >= Self.indexedFrom else { return }
        if positions == nil {
            positions = Self.index(of: components, capacity: count)
        } else {
            positions!.reserveCapacity(count)
        }
    }

    /// The position of each name in `components` (its first), with room for `capacity` names.
    private static func index(of components: [Component], capacity: Int) -> [String: Int] {
        var positions = [String: Int](minimumCapacity: capacity)
        for (index, component) in components.enumerated() where positions[component.name] == nil {
            positions[component.name] = index
        }
        return positions
    }

    /// Where `name` is in `components`, if present.
    private func position(of name: String) -> Int? {
        if let positions { return positions[name] }
        return components.firstIndex { $0.name == name }
    }

    /// Adds `name` with the digest of `value`: for values that must never be stored.
    public mutating func addSecret(_ name: String, _ value: String) {
        add(name, ContentDigest.sha256(of: Data(value.utf8)).description)
    }

    /// The value of `name`, if present.
    public subscript(name: String) -> String? {
        position(of: name).map { components[$0].value }
    }

    /// The canonical encoding: `taskgraph-key-4\n`, then for each component in order its name
    /// and its value, each as a 4-byte big-endian length and UTF-8 bytes.
    public var encoded: Data { Data(encodedBytes) }

    /// `encoded`, built in one buffer of its final size.
    private var encodedBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            Self.magic.utf8.count + components.reduce(0) { $0 + 8 + $1.name.utf8.count + $1.value.utf8.count })
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

extension KeyComponents {
    private enum CodingKeys: String, CodingKey {
        case components
    }

    /// Decodes the components (their index is made again, not stored).
    public init(from decoder: any Decoder) throws {
        self.init()
        for component in try decoder.container(keyedBy: CodingKeys.self).decode([Component].self, forKey: .components) {
            add(component.name, component.value)
        }
    }

    /// Encodes the components.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(components, forKey: .components)
    }

    /// Equal when their components are, in the same order.
    public static func == (lhs: KeyComponents, rhs: KeyComponents) -> Bool {
        lhs.components == rhs.components
    }

    /// Hashes the components.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(components)
    }
}
