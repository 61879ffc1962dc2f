import Foundation
import TaskGraphCore

extension TieredStore {
    /// Downloads the blob `digest`, checked against the digest, once however many ask for it
    /// at the same time (the caller stores it).
    /// - Returns: its contents.
    /// - Throws: `StoreError.missingEntry` when the server has none (or cannot be reached),
    ///   `StoreError.corruptEntry` when its contents do not match (warned about once).
    func download(_ digest: ContentDigest) async throws -> Data {
        let task = downloads.withLock { downloads -> Task<Data, any Error> in
            if let running = downloads[digest] { return running }
            let task = Task { [self] in try await fetch(digest) }
            downloads[digest] = task
            return task
        }
        defer { _ = downloads.withLock { $0.removeValue(forKey: digest) } }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// `download`'s request: the blob, checked against its digest.
    private func fetch(_ digest: ContentDigest) async throws -> Data {
        guard !hasFailed else { throw StoreError.missingEntry(digest) }
        let data: Data?
        do {
            data = try await remote.get("cas/" + digest.hex)
        } catch {
            if !(error is CancellationError) { fault(error) }
            throw StoreError.missingEntry(digest)
        }
        guard let data else { throw damage(digest, reason: "blob \(digest) is missing") }
        bytesDown.add(Int64(data.count), ordering: .relaxed)
        guard ContentDigest.sha256(of: data) == digest else {
            throw damage(digest, reason: "blob \(digest) does not match its digest")
        }
        return data
    }

    /// Notes that the server's blob `digest` is missing or damaged: warned about once per
    /// operation, uploaded again by the run that recomputes it.
    func damage(_ digest: ContentDigest, reason: String) -> StoreError {
        let owner = damage.withLock { damage -> String? in
            damage.damaged.insert(digest)
            return damage.owners.removeValue(forKey: digest)
        }
        if let owner { warn("remote cache entry for \(owner) is damaged (\(reason)), recomputed") }
        return StoreError.corruptEntry(digest)
    }
}
