import Foundation

/// Where results of earlier runs are kept: content-addressed blobs and action records
/// (key → result). The engine reaches the store only through this protocol; `TaskGraphStore`'s
/// `ContentStore` is the on-disk implementation (layout in docs/cache.md).
///
/// Every method may be called from many tasks at once, and from several processes sharing one
/// store; none blocks the cooperative thread pool.
public protocol ResultStore: FileDigesting {
    /// The record stored for `key`, if there is one and every blob it names is present.
    /// Reading it counts as a use for least-recently-used eviction.
    func record(for key: ContentDigest) async -> ActionRecord?

    /// The record stored for `key`, as `record(for:)` reads it, with those of its output files
    /// that may not hold their blob now (missing, changed, or not known to be unchanged): the
    /// only ones a hit must pass to `materialize`. For a store that can check both in one trip
    /// to a blocking thread.
    func reusableRecord(for key: ContentDigest) async -> (record: ActionRecord, unverified: [ActionRecord.OutputFile])?

    /// Writes `record` for `key` (temporary file, then rename); its blobs must already be stored.
    /// - Throws: `StoreError`-like errors when the store cannot be written (full, read-only).
    func write(_ record: ActionRecord, for key: ContentDigest) async throws

    /// Stores `result`'s encoded form (`SerializedResult.encoded`) as a blob.
    /// - Returns: its digest, which is `result.digest`.
    func storeResult(_ result: any OperationResult) async throws -> ContentDigest

    /// Stores `result` as `storeResult(_:)` does, unless its encoding is at most `limit`
    /// bytes: then nothing is written and the encoding is returned, for the record to hold
    /// (`ActionRecord.inlineResult`). A store that keeps every result as a blob ignores `limit`.
    /// - Returns: its digest, and its encoding when it was not stored.
    func storeResult(_ result: any OperationResult, inliningUpTo limit: Int) async throws
        -> (digest: ContentDigest, inline: Data?)

    /// Reads the result stored as `digest`, checking its content against the digest.
    /// - Throws: an error saying whether it is missing or corrupt; a corrupt blob is removed.
    func loadResult(_ digest: ContentDigest) async throws -> any OperationResult

    /// Reads the result `stored` stands for: decoded from the encoding it holds (checked against
    /// its digest) when its record held the result, else `loadResult(stored.digest)`.
    /// - Throws: what `loadResult(_:)` throws; a held encoding that does not match its digest
    ///   or does not decode is corrupt.
    func loadResult(_ stored: StoredResult) async throws -> any OperationResult

    /// Stores a copy of the file at `path` (absolute) as a blob.
    /// - Returns: the digest of its contents.
    func storeFile(at path: String) async throws -> ContentDigest

    /// Stores the file at `path` as `storeFile(at:)` does, unless it holds at most `limit`
    /// bytes: then nothing is written and its contents are returned, for the record to hold
    /// (`ActionRecord.OutputFile.contents`). A store that keeps every file as a blob ignores
    /// `limit`.
    /// - Returns: the digest of its contents, and the contents when they were not stored.
    func storeFile(at path: String, inliningUpTo limit: Int) async throws -> (digest: ContentDigest, contents: Data?)

    /// Makes the file at `path` hold the blob `digest`: left alone when it already does,
    /// otherwise written from the store atomically (temporary file in the same directory, then
    /// rename), the blob checked against its digest on the way.
    /// - Returns: whether the file had to be written.
    func materialize(_ digest: ContentDigest, at path: String) async throws -> Bool

    /// Makes `file.path` hold `file`'s contents as `materialize(_:at:)` does: written from the
    /// bytes its record holds (checked against its digest) when it holds them, else from the
    /// blob `file.digest`.
    /// - Returns: whether the file had to be written.
    func materialize(_ file: ActionRecord.OutputFile) async throws -> Bool
}

extension ResultStore {
    /// `storeResult(_:)`: every result a blob.
    public func storeResult(_ result: any OperationResult, inliningUpTo limit: Int) async throws
        -> (digest: ContentDigest, inline: Data?)
    {
        (try await storeResult(result), nil)
    }

    /// `storeFile(at:)`: every file a blob.
    public func storeFile(at path: String, inliningUpTo limit: Int) async throws
        -> (digest: ContentDigest, contents: Data?)
    {
        (try await storeFile(at: path), nil)
    }

    /// `materialize(file.digest, at: file.path)`, for a store whose records never hold a file.
    public func materialize(_ file: ActionRecord.OutputFile) async throws -> Bool {
        try await materialize(file.digest, at: file.path)
    }

    /// `loadResult(stored.digest)`, for a store whose records never hold a result.
    public func loadResult(_ stored: StoredResult) async throws -> any OperationResult {
        try await loadResult(stored.digest)
    }

    /// `record(for:)`, with every output file left to `materialize`.
    public func reusableRecord(for key: ContentDigest) async
        -> (record: ActionRecord, unverified: [ActionRecord.OutputFile])?
    {
        await record(for: key).map { ($0, $0.outputFiles) }
    }
}
