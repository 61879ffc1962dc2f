import Foundation

/// What the store keeps of a result it did not store because running its operation again costs
/// less than writing the result and reading it back (`StoragePolicy`): the result's digest (its
/// dependents' keys name it), kind and summary, its size and what recomputing it takes. A hit on
/// such a record is reused like any other; a dependent that runs and needs the result gets it by
/// running the operation again (and those of its inputs that were not stored either), checked
/// against the digest (docs/cache.md, "What is kept").
public struct UnstoredResult: OperationResult, Hashable {
    /// The digest of the encoded result that was not stored (its own `digest` is that of this
    /// reference's encoding).
    public let resultDigest: ContentDigest
    /// Its kind, e.g. `image.decoded`.
    public let resultKind: String
    /// Its summary.
    public let summary: String
    /// The size of its encoded form, in bytes.
    public let byteCount: UInt64
    /// How long running it again takes, with its inputs that were not stored either, in seconds.
    public let recomputeSeconds: Double

    /// A reference to a result of `byteCount` bytes recorded as `resultDigest`, recomputed in
    /// `recomputeSeconds`.
    public init(
        resultDigest: ContentDigest, resultKind: String, summary: String, byteCount: UInt64, recomputeSeconds: Double
    ) {
        self.resultDigest = resultDigest
        self.resultKind = resultKind
        self.summary = summary
        self.byteCount = byteCount
        self.recomputeSeconds = recomputeSeconds
    }

    /// `result.unstored`: the kind of this reference, and of the `StoredResult` that stands
    /// for the result it names in a run (`StoredResult(_:)`: the result's digest, this kind).
    public static let kind = "result.unstored"

    /// Why the result was not stored: `not stored (cheaper to recompute, 0.12 s vs 31 MB)`.
    public var reason: String {
        let seconds = recomputeSeconds < 0.01 ? "<0.01" : String(format: "%.2f", recomputeSeconds)
        return "not stored (cheaper to recompute, \(seconds) s vs \(ByteCountText.format(byteCount)))"
    }

    /// Version 1: the digest's 32 bytes, the kind and summary, the byte count (`u64`), then the
    /// seconds (`u64`, the bits of an IEEE 754 double).
    public func serialized() async throws -> Data {
        ResultWriter.payload(version: 1) { writer in
            writer.append(raw: resultDigest.bytes)
            writer.append(string: resultKind)
            writer.append(string: summary)
            writer.append(byteCount)
            writer.append(recomputeSeconds.bitPattern)
        }
    }

    /// Reads `serialized()`'s form back.
    public init(serialized payload: Data) throws {
        var reader = ResultReader(payload, kind: Self.kind)
        try reader.readVersion(supported: 1)
        // `read(count:)` returns exactly the count asked for, or throws.
        resultDigest = ContentDigest(bytes: try reader.read(count: UInt64(ContentDigest.byteCount), "digest"))!
        resultKind = try reader.readString("kind")
        summary = try reader.readString("summary")
        byteCount = try reader.readUInt64("byte count")
        recomputeSeconds = Double(bitPattern: try reader.readUInt64("seconds"))
        try reader.finish()
    }
}
