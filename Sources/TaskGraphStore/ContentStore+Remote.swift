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
    /// - Returns: the bytes added to the store (0 when the blob was present).
    static func storeBlob(verified contents: Data, as digest: ContentDigest, _ layout: StoreLayout, flush: Bool)
        throws -> Int64
    {
        if keepBlob(digest, layout, size: Int64(contents.count)) { return 0 }
        try StoreIO.writeFile(contents, to: layout.blob(digest), layout, flush: flush, besideIt: true)
        return Int64(contents.count)
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
    @discardableResult
    func writeRecordsWithBlobs(
        _ records: [ContentDigest: ActionRecord], threads: Int = recordWriters
    ) async -> Set<ContentDigest> {
        let layout = layout
        let flush = flushesWrites
        let entries = Array(records)
        let (added, written) =
            (try? await BlockingIO.run { () -> (Int64, Set<ContentDigest>) in
                let added = Locked<(Int64, Set<ContentDigest>)>((0, []))
                let copy: @Sendable (Int) -> Void = { index in
                    let (key, record) = entries[index]
                    guard record.blobs.allSatisfy({ access(layout.blob($0), F_OK) == 0 }) else { return }
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
