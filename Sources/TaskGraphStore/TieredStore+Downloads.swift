import Foundation
import TaskGraphCore

extension TieredStore {
    /// Downloads the blob `digest`, checked against the digest, once however many ask for it
    /// at the same time (the caller stores it). The first to ask fetches it on its own thread
    /// (a lookup's blocking thread: no trip to another thread and back); the others wait for
    /// its outcome, bytes or error (a blob missing or damaged is asked for once), and fetch
    /// again themselves only if the fetcher was cancelled.
    /// - Returns: its contents, and whether this task fetched them (rather than waited for
    ///   another's fetch, which may have stored them already).
    /// - Throws: `StoreError.missingEntry` when the server has none (or cannot be reached),
    ///   `StoreError.corruptEntry` when its contents do not match (warned about once),
    ///   `CancellationError` when the task is cancelled while it waits for another's download
    ///   (at once: not when that download ends).
    func download(_ digest: ContentDigest) async throws -> (contents: Data, fetched: Bool) {
        while true {
            if downloads.begin(digest) { return (try await fetchForWaiters(digest), true) }
            if let outcome = await downloads.wait(digest) { return (try outcome.get(), false) }
            try Task.checkCancellation()
        }
    }

    /// `fetch`, then hands its outcome to those that waited for it (nil when this task was
    /// cancelled: they fetch again).
    private func fetchForWaiters(_ digest: ContentDigest) async throws -> Data {
        let result: Result<Data, any Error>
        do {
            result = .success(try await fetch(digest))
        } catch {
            result = .failure(error)
        }
        // Only the fetcher's own cancellation makes the others fetch again.
        downloads.finish(digest, Task.isCancelled ? nil : result)
        return try result.get()
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
