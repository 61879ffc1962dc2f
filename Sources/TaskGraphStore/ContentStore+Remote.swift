import Foundation
import TaskGraphCore

extension ContentStore {
    /// Stores `contents`, downloaded from a remote cache and checked against `digest` by the
    /// caller, as the blob `digest` (kept when present).
    /// - Throws: `StoreError.writeFailed`.
    func storeBlob(verified contents: Data, as digest: ContentDigest) async throws {
        let layout = layout
        let flush = flushesWrites
        let added = try await BlockingIO.run {
            try Self.storeBlob(verified: contents, as: digest, layout, flush: flush)
        }
        bytesAdded.withLock { $0 += added }
    }

    /// `storeBlob(verified:as:)` on the calling thread, a blocking one.
    /// - Parameter absent: the blob was just found missing: written without looking again (at
    ///   worst over the same bytes another process stored meanwhile).
    /// - Returns: the bytes added to the store (0 when the blob was present).
    static func storeBlob(
        verified contents: Data, as digest: ContentDigest, _ layout: StoreLayout, flush: Bool, absent: Bool = false
    ) throws -> Int64 {
        if !absent, keepBlob(digest, layout, size: Int64(contents.count)) { return 0 }
        try StoreIO.writeFile(contents, to: layout.blob(digest), layout, flush: flush, besideIt: true)
        return Int64(contents.count)
    }

    /// Restores the file at `path` from `contents`, the blob `digest` downloaded from a remote
    /// cache (checked against the digest by the caller), and keeps them as that blob, in one
    /// trip to a blocking thread: what follows `materializing` finding the blob missing. A file
    /// found there then is left alone if it holds the blob (hashed when its size matches);
    /// none found is written without looking again (replaced atomically if one appeared).
    /// - Parameters:
    ///   - fileExists: whether `materializing` found a file at `path`.
    ///   - blobAbsent: whether the blob is known missing (rather than unreadable, or maybe
    ///     stored by another meanwhile): written without looking for it again.
    /// - Returns: whether the file was written.
    /// - Throws: `StoreError.writeFailed`, `OperationError.writeFailed` naming `path`.
    func restore(
        _ contents: Data, as digest: ContentDigest, at path: String, fileExists: Bool, blobAbsent: Bool
    ) async throws -> Bool {
        let layout = layout
        let statCache = statCache
        let flush = flushesWrites
        // Read here: the task-local is not visible on the blocking thread.
        let temporaryFiles = RunResources.current?.temporaryFiles ?? TemporaryFiles()
        let (written, added) = try await BlockingIO.run { () throws -> (Bool, Int64) in
            let added = try Self.storeBlob(verified: contents, as: digest, layout, flush: flush, absent: blobAbsent)
            if fileExists, FileStat.of(path)?.size == Int64(contents.count), let hashed = try? FileHasher.hash(path) {
                statCache.remember(path, hashed)
                if hashed.digest == digest { return (false, added) }
            }
            try FileIO.writeAtomically(contents, to: path, temporaryFiles: temporaryFiles, flushing: flush)
            return (true, added)
        }
        bytesAdded.withLock { $0 += added }
        return written
    }

    /// The contents of the blob `digest`, checked against it, to upload.
    /// - Throws: `StoreError.missingEntry`, `StoreError.corruptEntry`.
    func blobContents(_ digest: ContentDigest) async throws -> Data {
        let layout = layout
        return try await BlockingIO.run { try Self.verifiedBlob(digest, layout) }
    }

    /// The size in bytes of the blob `digest`, or nil when it is not in the store.
    func blobSize(_ digest: ContentDigest) async -> Int64? {
        let layout = layout
        return (try? await BlockingIO.run { FileStat.of(layout.blob(digest))?.size }) ?? nil
    }

    /// Writes each of `records` whose blobs are all in the store, in one trip to the blocking
    /// threads, up to `threads` files at once (a run of 10,000 remote hits may copy 10,000 records
    /// at its end: each a file created, which may wait on the disk; a record copied beside the
    /// run, whose other work is parallel already, uses one: the calling thread), one thread for
    /// every `recordsPerWriter` records.
    /// - Parameter blobsStored: the caller stored every blob they name in this run, so they are
    ///   not looked for: a collection removes nothing younger than its grace period, and a
    ///   record naming a blob gone after a longer run reads as no record (a miss, never a wrong
    ///   hit).
    @discardableResult
    func writeRecordsWithBlobs(
        _ records: [ContentDigest: ActionRecord], threads: Int = recordWriters, blobsStored: Bool = false
    ) async -> Set<ContentDigest> {
        let layout = layout
        let flush = flushesWrites
        let entries = Array(records)
        let (added, written) =
            (try? await BlockingIO.run { () -> (Int64, Set<ContentDigest>) in
                let added = Locked<(Int64, Set<ContentDigest>)>((0, []))
                let copy: @Sendable (Int) -> Void = { index in
                    let (key, record) = entries[index]
                    guard blobsStored || record.blobs.allSatisfy({ access(layout.blob($0), F_OK) == 0 }) else {
                        return
                    }
                    let data = ActionRecordCoder.encode(record)
                    guard
                        (try? StoreIO.writeFile(data, to: layout.record(key), layout, flush: flush, besideIt: true))
                            != nil
                    else { return }
                    added.withLock { added in
                        added.0 += Int64(data.count)
                        added.1.insert(key)
                    }
                }
                let writers = min(threads, (entries.count + Self.recordsPerWriter - 1) / Self.recordsPerWriter)
                if writers <= 1 {
                    entries.indices.forEach(copy)
                } else {
                    ParallelBands.forEach(entries.count, threads: writers, copy)
                }
                return added.withLock { $0 }
            }) ?? (0, [])
        bytesAdded.withLock { $0 += added }
        return written
    }

    /// How many records `writeRecordsWithBlobs` writes at once: 8.
    static let recordWriters = 8

    /// How many records `writeRecordsWithBlobs` gives each thread at least: 16. A thread started
    /// for fewer costs more than it saves (machine B's run of photos.yaml started 7 at its end
    /// for 12 records, none of whose blobs were in the store).
    static let recordsPerWriter = 16
}
