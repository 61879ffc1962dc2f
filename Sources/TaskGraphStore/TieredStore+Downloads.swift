import Foundation
import TaskGraphCore

extension TieredStore {
    /// Downloads the blob `digest`, checked against the digest, once however many ask for it
    /// at the same time (the caller stores it). The first to ask fetches it on its own thread
    /// (a lookup's blocking thread: no trip to another thread and back); the others wait for
    /// its bytes, and fetch again themselves if it failed.
    /// - Returns: its contents.
    /// - Throws: `StoreError.missingEntry` when the server has none (or cannot be reached),
    ///   `StoreError.corruptEntry` when its contents do not match (warned about once),
    ///   `CancellationError` when the task is cancelled while it waits for another's download.
    func download(_ digest: ContentDigest) async throws -> Data {
        while true {
            let isFirst = downloads.withLock { downloads in
                guard downloads[digest] == nil else { return false }
                downloads[digest] = []
                return true
            }
            if isFirst { return try await fetchForWaiters(digest) }
            if let data = await waitForDownload(digest) { return data }
            try Task.checkCancellation()
        }
    }

    /// `fetch`, then hands its bytes (nil when it failed) to those that waited for them.
    private func fetchForWaiters(_ digest: ContentDigest) async throws -> Data {
        let result: Result<Data, any Error>
        do {
            result = .success(try await fetch(digest))
        } catch {
            result = .failure(error)
        }
        let waiters = downloads.withLock { $0.removeValue(forKey: digest) } ?? []
        let data = try? result.get()
        for waiter in waiters { waiter.resume(returning: data) }
        return try result.get()
    }

    /// The bytes of the download of `digest` under way, or nil when it failed or had ended
    /// already.
    private func waitForDownload(_ digest: ContentDigest) async -> Data? {
        await withCheckedContinuation { continuation in
            let waiting = downloads.withLock { downloads in
                guard downloads[digest] != nil else { return false }
                downloads[digest]?.append(continuation)
                return true
            }
            if !waiting { continuation.resume(returning: nil) }
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
