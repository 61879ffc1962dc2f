import Foundation

/// A result reused from the store and not read: the engine hands a hit's dependents this
/// placeholder and reads the result itself (`ResultStore.loadResult`) only when a dependent
/// that actually runs needs it. A run's final results (`RunReport.finalResults`) hold one for
/// every sink that was a hit.
public struct StoredResult: OperationResult, Hashable {
    /// The digest of the encoded result, the name of its blob.
    public let digest: ContentDigest
    /// The kind of the result it stands for, e.g. `image.decoded`.
    public let resultKind: String
    /// The summary recorded with it.
    public let summary: String
    /// The encoded result, when its record held it instead of a blob (`ActionRecord.inlineResult`):
    /// `ResultStore.loadResult(_:)` decodes it instead of reading a blob, which there is none of.
    /// Not part of `serialized()`.
    public let inline: Data?

    /// A placeholder for the result recorded as `digest`, held as `inline` when its record
    /// held it.
    public init(digest: ContentDigest, resultKind: String, summary: String, inline: Data? = nil) {
        self.digest = digest
        self.resultKind = resultKind
        self.summary = summary
        self.inline = inline
    }

    /// A placeholder for the result `record` names.
    public init(_ record: ActionRecord) {
        self.init(
            digest: record.result, resultKind: record.resultKind, summary: record.summary, inline: record.inlineResult)
    }

    /// A placeholder for the result `unstored` names, which is not in the store: its identity as
    /// the digest, with the kind `result.unstored`, so that a dependent that needs it recomputes it.
    public init(_ unstored: UnstoredResult) {
        self.init(digest: unstored.identity, resultKind: UnstoredResult.kind, summary: unstored.summary)
    }

    /// Placeholders of the same recorded result are equal whether or not one holds it `inline`
    /// (the digest names its bytes).
    public static func == (a: StoredResult, b: StoredResult) -> Bool {
        a.digest == b.digest && a.resultKind == b.resultKind && a.summary == b.summary
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
        hasher.combine(resultKind)
        hasher.combine(summary)
    }

    /// Whether the result it stands for was left out of the store (`UnstoredResult`).
    public var isUnstored: Bool { resultKind == UnstoredResult.kind }

    /// `stored-reference`: written to a store only as what the record of a fused chain's
    /// intermediate names (its result was never stored; docs/cluster.md, "Fusion").
    public static let kind = "stored-reference"

    /// The placeholder's own form: version 1, the digest's 32 bytes, then the kind and summary.
    public func serialized() async throws -> Data {
        ResultWriter.payload(version: 1) { writer in
            writer.append(raw: digest.bytes)
            writer.append(string: resultKind)
            writer.append(string: summary)
        }
    }

    /// Reads `serialized()`'s form back.
    public init(serialized payload: Data) throws {
        var reader = ResultReader(payload, kind: Self.kind)
        try reader.readVersion(supported: 1)
        // `read(count:)` returns exactly the count asked for, or throws.
        digest = ContentDigest(bytes: try reader.read(count: UInt64(ContentDigest.byteCount), "digest"))!
        resultKind = try reader.readString("kind")
        summary = try reader.readString("summary")
        inline = nil
        try reader.finish()
    }
}
