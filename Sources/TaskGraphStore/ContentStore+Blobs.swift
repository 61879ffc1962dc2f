import Foundation
import TaskGraphCore

extension ContentStore {
    /// Stores `result`'s encoded form (`SerializedResult.encoded`) as a blob, hashing and writing
    /// its header and payload as they are: a `PayloadPartsProvider`'s straight from its own
    /// memory (an image's pixels are never copied), any other's serialised once (the encoding is
    /// never joined into one more copy of the payload); an existing blob is kept (and marked
    /// recent, so no collection removes it before its record is written).
    /// - Returns: its digest, which is `result.digest`.
    /// - Throws: what serialising throws, `StoreError.writeFailed`.
    public func storeResult(_ result: any OperationResult) async throws -> ContentDigest {
        try await storeResult(result, inliningUpTo: 0).digest
    }

    /// `storeResult(_:)`, except that an encoding of at most `limit` bytes is returned instead
    /// of written (its digest computed all the same), for the record to hold.
    public func storeResult(_ result: any OperationResult, inliningUpTo limit: Int) async throws
        -> (digest: ContentDigest, inline: Data?)
    {
        let layout = layout
        let flush = flushesWrites
        let kind = type(of: result).kind
        let stored: (digest: ContentDigest, added: Int64)
        if let parts = result as? any PayloadPartsProvider, let count = result.payloadByteCount,
            count > limit
        {
            try Task.checkCancellation()
            stored = try await BlockingIO.run {
                try parts.withPayloadParts { try Self.storeBlob(kind: kind, payload: $0, layout, flush: flush) }
            }
        } else {
            let serialized = try await SerializedResult(of: result)
            let header = try SerializedResult.header(kind: serialized.kind, payloadCount: serialized.payload.count)
            if header.count + serialized.payload.count <= limit {
                let encoded = header + serialized.payload
                return (ContentDigest.sha256(of: encoded), encoded)
            }
            stored = try await BlockingIO.run {
                try Self.storeBlob(kind: kind, payload: [serialized.payload], layout, flush: flush)
            }
        }
        bytesAdded.withLock { $0 += stored.added }
        return (stored.digest, nil)
    }

    /// Stores the encoding of a result of `kind` whose payload is `parts`, one after the other,
    /// as a blob: hashed, then written unless the blob is present (`keepBlob`). Blocking.
    /// - Returns: its digest and the bytes added to the store (0 when it was present).
    /// - Throws: `ResultCodingError.invalidKindName`, `StoreError.writeFailed`.
    private static func storeBlob(kind: String, payload parts: [Data], _ layout: StoreLayout, flush: Bool) throws
        -> (digest: ContentDigest, added: Int64)
    {
        let count = parts.reduce(0) { $0 + $1.count }
        let header = try SerializedResult.header(kind: kind, payloadCount: count)
        var hasher = try ContentHasher(resultKind: kind, payloadCount: count)
        for part in parts { hasher.update(part) }
        let digest = hasher.finalize()
        let size = Int64(header.count + count)
        if keepBlob(digest, layout, size: size) { return (digest, 0) }
        try StoreIO.writeFile([header] + parts, to: layout.blob(digest), layout, flush: flush, besideIt: true)
        return (digest, size)
    }

    /// Reads the result `stored` stands for: decoded from the encoding it holds, checked against
    /// its digest, when its record held it; else the blob (`loadResult(_:)`).
    /// - Throws: `StoreError.corruptEntry` for a held encoding that does not match its digest,
    ///   `StoreError.unreadableResult` for one that does not decode; what `loadResult(_:)` throws.
    public func loadResult(_ stored: StoredResult) async throws -> any OperationResult {
        guard let inline = stored.inline else { return try await loadResult(stored.digest) }
        guard ContentDigest.sha256(of: inline) == stored.digest else { throw StoreError.corruptEntry(stored.digest) }
        do {
            return try registry.decode(encoded: inline)
        } catch {
            throw StoreError.unreadableResult(stored.digest, reason: "\(error)")
        }
    }

    /// Reads the result stored as `digest`, checking it against the digest.
    /// - Throws: `StoreError.missingEntry`; `StoreError.corruptEntry` (the blob is removed);
    ///   `StoreError.unreadableResult` for a kind or layout this build does not read.
    public func loadResult(_ digest: ContentDigest) async throws -> any OperationResult {
        let layout = layout
        let registry = registry
        return try await BlockingIO.run { () throws -> any OperationResult in
            let encoded = try Self.verifiedBlob(digest, layout)
            do {
                return try registry.decode(encoded: encoded)
            } catch {
                throw StoreError.unreadableResult(digest, reason: "\(error)")
            }
        }
    }

    /// Stores a copy of the file at `path` as a blob: a file of up to `filesReadWhole` bytes is
    /// read and hashed first, then written beside its blob; a larger one is hashed while it is
    /// copied through `tmp/`. Nothing is read when the stat cache knows the file unchanged and
    /// its blob is present.
    /// - Returns: the digest of its contents.
    /// - Throws: `OperationError.readFailed` naming `path`, `StoreError.writeFailed`.
    public func storeFile(at path: String) async throws -> ContentDigest {
        try await storeFile(at: path, inliningUpTo: 0).digest
    }

    /// `storeFile(at:)`, except that a file of at most `limit` bytes is read, hashed and returned
    /// instead of written, for the record to hold.
    public func storeFile(at path: String, inliningUpTo limit: Int) async throws
        -> (digest: ContentDigest, contents: Data?)
    {
        let layout = layout
        let statCache = statCache
        let flush = flushesWrites
        // Held: a file of up to `limit` bytes, when there is a limit.
        let heldUpTo: Int64 = limit > 0 ? Int64(limit) : -1
        let (digest, added, held) = try await BlockingIO.run { () throws -> (ContentDigest, Int64, Data?) in
            let stat = FileStat.of(path)
            if let stat, stat.size > heldUpTo, let digest = statCache.remembered(path, stat),
                Self.keepBlob(digest, layout, size: stat.size)
            {
                return (digest, 0, nil)
            }
            // Hashed before it is written, so written in its own fan-out directory, as a result
            // is (`StoreIO.writeFile`'s `besideIt`).
            if let stat, stat.size <= Self.filesReadWhole,
                let read = try FileHasher.readWhole(path, limit: Self.filesReadWhole, expectedSize: stat.size)
            {
                statCache.remember(path, read.hashed)
                let digest = read.hashed.digest
                if read.contents.count <= heldUpTo { return (digest, 0, read.contents) }
                let size = Int64(read.contents.count)
                if Self.keepBlob(digest, layout, size: size) { return (digest, 0, nil) }
                try StoreIO.writeFile(read.contents, to: layout.blob(digest), layout, flush: flush, besideIt: true)
                return (digest, size, nil)
            }
            let (hashed, descriptor, temporary) = try FileHasher.copy(path, into: layout)
            statCache.remember(path, hashed)
            let size = FileStat.of(descriptor: descriptor)?.size ?? 0
            if Self.keepBlob(hashed.digest, layout, size: size) {
                close(descriptor)
                unlink(temporary)
                return (hashed.digest, 0, nil)
            }
            try StoreIO.commit(descriptor, temporary, to: layout.blob(hashed.digest), layout, flush: flush)
            return (hashed.digest, size, nil)
        }
        bytesAdded.withLock { $0 += added }
        return (digest, held)
    }

    /// Makes the file at `path` hold the blob `digest`. Left alone (same inode, nothing
    /// written) when it already does: known from the stat cache without reading it, else by
    /// hashing it when its size matches. Otherwise written from the blob, checked against its
    /// digest, atomically (temporary file beside it, then rename), flushed when the store's
    /// writes are (a file restored again if a crash of the machine damages it, as the files
    /// operations write are not flushed either).
    /// - Returns: whether the file had to be written.
    /// - Throws: `StoreError.missingEntry` (the file needs writing and the store lacks the
    ///   blob), `StoreError.corruptEntry` (the blob is removed), `OperationError.writeFailed`
    ///   naming `path`.
    public func materialize(_ digest: ContentDigest, at path: String) async throws -> Bool {
        switch try await materializing(digest, at: path) {
        case .held: false
        case .written: true
        case .blobMissing: throw StoreError.missingEntry(digest)
        }
    }

    /// What `materializing` did.
    enum Materialization: Equatable {
        /// The file held the blob already: left alone.
        case held
        /// The file was written from the blob.
        case written
        /// The file needs writing and the store lacks the blob; whether a file is at the path.
        case blobMissing(fileExists: Bool)
    }

    /// `materialize(_:at:)`, telling a blob the store lacks apart, with what was found at
    /// `path`: for a caller that fetches the blob elsewhere (`restore`).
    func materializing(_ digest: ContentDigest, at path: String) async throws -> Materialization {
        let layout = layout
        let blob: @Sendable () throws -> Data? = {
            do {
                return try Self.verifiedBlob(digest, layout)
            } catch StoreError.missingEntry {
                return nil
            }
        }
        return try await restoring(digest, at: path, size: { FileStat.of(layout.blob(digest))?.size }, contents: blob)
    }

    /// Makes the file at `path` hold the contents `digest`, `size()` bytes long (nil: unknown):
    /// left alone when it does (`holds`), else written atomically from `contents()`, checked
    /// against `digest` by it; `.blobMissing` when it gives nil. Blocking work on a blocking thread.
    func restoring(
        _ digest: ContentDigest, at path: String, size: @escaping @Sendable () -> Int64?,
        contents: @escaping @Sendable () throws -> Data?
    ) async throws -> Materialization {
        let statCache = statCache
        let flush = flushesWrites
        // Read here: the task-local is not visible on the blocking thread.
        let temporaryFiles = RunResources.current?.temporaryFiles ?? TemporaryFiles()
        return try await BlockingIO.run { () throws -> Materialization in
            let stat = FileStat.of(path)
            if Self.holds(digest, path, stat, size: size, statCache) { return .held }
            guard let bytes = try contents() else { return .blobMissing(fileExists: stat != nil) }
            try FileIO.writeAtomically(bytes, to: path, temporaryFiles: temporaryFiles, flushing: flush)
            return .written
        }
    }

    /// Whether the file at `path`, whose `stat` is `stat` (nil: there is none), holds the
    /// contents `digest`, `size` bytes long: known from the stat cache, else hashed when its size
    /// matches (and remembered). Blocking.
    static func holds(
        _ digest: ContentDigest, _ path: String, _ stat: FileStat?, size: () -> Int64?, _ statCache: StatCache
    ) -> Bool {
        guard let stat else { return false }
        if let known = statCache.remembered(path, stat) { return known == digest }
        guard size() == stat.size, let hashed = try? FileHasher.hash(path) else { return false }
        statCache.remember(path, hashed)
        return hashed.digest == digest
    }

    /// The size up to which `storeFile` reads a file into memory before writing its blob;
    /// a larger one is copied through `tmp/` as it is read.
    static let filesReadWhole: Int64 = 1 << 20

    /// Whether the blob `digest` is present with its `size` in bytes; if so, marks it recent
    /// when it is older than half the grace period, so that a collection running beside this
    /// one keeps it. A blob of another size (emptied or cut short by a crash of the machine
    /// before the system wrote it, docs/cache.md, "Writing") counts as absent: it is written
    /// again. Blocking.
    static func keepBlob(_ digest: ContentDigest, _ layout: StoreLayout, size: Int64) -> Bool {
        let path = layout.blob(digest)
        guard let stat = FileStat.of(path), stat.size == size else { return false }
        StoreIO.touch(path, ifOlderThan: gracePeriod / 2, modified: stat.modifiedSeconds)
        return true
    }

    /// The contents of the blob `digest`, checked against the digest. Blocking.
    /// - Throws: `StoreError.missingEntry`; `StoreError.corruptEntry` after removing it.
    static func verifiedBlob(_ digest: ContentDigest, _ layout: StoreLayout) throws(StoreError) -> Data {
        let path = layout.blob(digest)
        guard let contents = try StoreIO.read(path, layout) else { throw .missingEntry(digest) }
        guard ContentDigest.sha256(of: contents) == digest else {
            whileRemoving(layout) { _ = unlink(path) }
            throw .corruptEntry(digest)
        }
        return contents
    }
}
