import Foundation
import TaskGraphCore

extension ContentStore {
    /// Stores `contents`, downloaded from a remote cache, as the blob `digest` (kept when
    /// present), after checking them against it.
    /// - Throws: `StoreError.corruptEntry` when they do not match, `StoreError.writeFailed`.
    func storeBlob(_ contents: Data, as digest: ContentDigest) async throws {
        guard ContentDigest.sha256(of: contents) == digest else { throw StoreError.corruptEntry(digest) }
        let layout = layout
        let flush = flushesWrites
        let added = try await BlockingIO.run { () throws -> Int64 in
            if Self.keepBlob(digest, layout, size: Int64(contents.count)) { return 0 }
            try StoreIO.writeFile(contents, to: layout.blob(digest), layout, flush: flush, besideIt: true)
            return Int64(contents.count)
        }
        bytesAdded.withLock { $0 += added }
    }

    /// The contents of the blob `digest`, checked against it, to upload.
    /// - Throws: `StoreError.missingEntry`, `StoreError.corruptEntry`.
    func blobContents(_ digest: ContentDigest) async throws -> Data {
        let layout = layout
        return try await BlockingIO.run { try Self.verifiedBlob(digest, layout) }
    }

    /// Whether the blob `digest` is in the store.
    func hasBlob(_ digest: ContentDigest) async -> Bool {
        let layout = layout
        return (try? await BlockingIO.run { access(layout.blob(digest), F_OK) == 0 }) ?? false
    }

    /// Writes each of `records` whose blobs are all in the store, in one trip to a blocking
    /// thread (a run of 10,000 remote hits copies 10,000 records at its end).
    func writeRecordsWithBlobs(_ records: [ContentDigest: ActionRecord]) async {
        let layout = layout
        let flush = flushesWrites
        let added = (try? await BlockingIO.run { () -> Int64 in
            var added: Int64 = 0
            for (key, record) in records where record.blobs.allSatisfy({ access(layout.blob($0), F_OK) == 0 }) {
                let data = ActionRecordCoder.encode(record)
                guard (try? StoreIO.writeFile(data, to: layout.record(key), layout, flush: flush, besideIt: true)) != nil
                else { continue }
                added += Int64(data.count)
            }
            return added
        }) ?? 0
        bytesAdded.withLock { $0 += added }
    }
}
