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

    /// Whether every blob `record` names is in the store.
    func hasBlobs(of record: ActionRecord) async -> Bool {
        let layout = layout
        return (try? await BlockingIO.run { record.blobs.allSatisfy { access(layout.blob($0), F_OK) == 0 } }) ?? false
    }
}
