import Foundation
import TaskGraphCore

/// Uploads: what a run records goes up beside the run (`UploadQueue`), blobs the server lacks
/// first, then the record.
extension TieredStore {
    /// The size up to which an upload sends a blob without asking whether the server has it: 64 KiB.
    static let smallBlobBytes: Int64 = 64 << 10

    /// Uploads finished and enqueued so far.
    public var uploadProgress: (finished: Int, total: Int) { uploads?.progress ?? (0, 0) }

    /// Uploads the blobs of `record` the server lacks (or holds damaged), then the record, unless
    /// a blob is on neither side. A blob of at most `smallBlobBytes` is sent without asking
    /// first: its `PUT` costs what the `HEAD` would (one round trip), and a cold run creates
    /// mostly such blobs.
    func upload(_ record: ActionRecord, for key: ContentDigest) async {
        do {
            // A fused chain's intermediate names its `stored-reference` blob, which a reader
            // needs to learn the digest of the result that was not stored: it goes up too.
            for blob in Set(record.blobs) {
                guard !hasFailed, try await ensureOnServer(blob) else { return }
            }
            let encoded = RemoteRecordCoder.encode(record, signer: signer)
            try await remote.put("ac/" + key.hex, encoded)
            bytesUp.add(Int64(encoded.count), ordering: .relaxed)
        } catch {
            fault(error)
        }
    }

    /// Whether the server holds `blob` once this returns: sent from the local store, or already
    /// there (a cluster worker's result, which the driver's store lacks); false when neither has it.
    private func ensureOnServer(_ blob: ContentDigest) async throws -> Bool {
        try await send(blob) ? true : try await remote.contains("cas/" + blob.hex)
    }

    /// Sends `blob` unless the server has it (or `smallBlobBytes` or less); false when the
    /// local store does not hold it.
    private func send(_ blob: ContentDigest) async throws -> Bool {
        guard let size = await local.blobSize(blob) else { return false }
        let damaged = damage.withLock { $0.damaged.contains(blob) }
        if size > Self.smallBlobBytes, !damaged, try await remote.contains("cas/" + blob.hex) { return true }
        guard let contents = try? await local.blobContents(blob) else { return false }
        try await remote.put("cas/" + blob.hex, contents)
        bytesUp.add(Int64(contents.count), ordering: .relaxed)
        return true
    }

    /// Enqueues the upload of the blobs of `record` the local store holds, not the record: how a
    /// cluster worker without a shared store hands over a result that has no key (docs/cluster.md).
    public func uploadBlobs(of record: ActionRecord) {
        uploads?.enqueue { [self] in
            do {
                for blob in Set(record.blobs) where !hasFailed { _ = try await send(blob) }
            } catch {
                fault(error)
            }
        }
    }

    /// Makes sure the server holds each blob of `digests`: sends those the local store holds and
    /// the server lacks, now. What a cluster driver does for a job's inputs before submitting it,
    /// when the nodes share no file system with it.
    /// - Throws: the server's failure, or `StoreError.missingEntry` for a blob neither has.
    public func upload(_ digests: [ContentDigest]) async throws {
        for digest in Set(digests) where !(try await ensureOnServer(digest)) { throw StoreError.missingEntry(digest) }
    }
}
