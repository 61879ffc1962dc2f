import Foundation

/// What the store keeps of a result it did not store because running its operation again costs
/// less than ten times writing the result (`StoragePolicy`): the identity its
/// dependents' keys name (derived from its operation's key, not from its bytes, which are never
/// hashed), its kind and summary, its size and what recomputing it takes. A hit on such a record
/// is reused like any other; a dependent that runs and needs the result gets it by running the
/// operation again (and those of its inputs that were not stored either), checked against the
/// recorded kind and size (docs/cache.md, "What is kept").
public struct UnstoredResult: OperationResult, Hashable {
    /// What stands for the result in its dependents' keys: `identity(ofResultKeyedBy:)` of its
    /// operation's key (its own `digest` is that of this reference's encoding).
    public let identity: ContentDigest
    /// Its kind, e.g. `image.decoded`.
    public let resultKind: String
    /// Its summary.
    public let summary: String
    /// The size of its encoded form, in bytes.
    public let byteCount: UInt64
    /// How long running it again takes, with its inputs that were not stored either, in seconds.
    public let recomputeSeconds: Double

    /// A reference to a result of `byteCount` bytes known to its dependents as `identity`,
    /// recomputed in `recomputeSeconds`.
    public init(
        identity: ContentDigest, resultKind: String, summary: String, byteCount: UInt64, recomputeSeconds: Double
    ) {
        self.identity = identity
        self.resultKind = resultKind
        self.summary = summary
        self.byteCount = byteCount
        self.recomputeSeconds = recomputeSeconds
    }

    /// The identity of the result of a recomputable operation whose key is `key`: the SHA-256 of
    /// `taskgraph-unstored-1\n` and the key's 32 bytes. Such an operation's result is a function
    /// of its key (it reads nothing but its inputs, which the key names), so the identity names
    /// one result as a digest of its bytes would, and cannot equal any digest of bytes (the
    /// prefix keeps the two apart).
    public static func identity(ofResultKeyedBy key: ContentDigest) -> ContentDigest {
        ContentDigest.sha256(of: Data("taskgraph-unstored-1\n".utf8) + key.bytes)
    }

    /// `result.unstored`: the kind of this reference, and of the `StoredResult` that stands
    /// for the result it names in a run (`StoredResult(_:)`: the result's identity, this kind).
    public static let kind = "result.unstored"

    /// Why the result was not stored: `not stored (recomputing takes 0.12 s, under 10× writing
    /// 31.1 MB)` (`StoragePolicy`).
    public var reason: String {
        let seconds = recomputeSeconds < 0.01 ? "<0.01" : String(format: "%.2f", recomputeSeconds)
        return "not stored (recomputing takes \(seconds) s, under 10× writing \(ByteCountText.format(byteCount)))"
    }

    /// Version 2: the identity's 32 bytes, the kind and summary, the byte count (`u64`), then the
    /// seconds (`u64`, the bits of an IEEE 754 double).
    public func serialized() async throws -> Data {
        ResultWriter.payload(version: 2) { writer in
            writer.append(raw: identity.bytes)
            writer.append(string: resultKind)
            writer.append(string: summary)
            writer.append(byteCount)
            writer.append(recomputeSeconds.bitPattern)
        }
    }

    /// Reads `serialized()`'s form back.
    public init(serialized payload: Data) throws {
        var reader = ResultReader(payload, kind: Self.kind)
        try reader.readVersion(supported: 2)
        // `read(count:)` returns exactly the count asked for, or throws.
        identity = ContentDigest(bytes: try reader.read(count: UInt64(ContentDigest.byteCount), "identity"))!
        resultKind = try reader.readString("kind")
        summary = try reader.readString("summary")
        byteCount = try reader.readUInt64("byte count")
        recomputeSeconds = Double(bitPattern: try reader.readUInt64("seconds"))
        try reader.finish()
    }
}
