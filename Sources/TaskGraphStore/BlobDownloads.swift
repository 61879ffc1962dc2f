import Foundation
import Synchronization
import TaskGraphCore

/// The downloads of remote blobs under way, each with those waiting for its outcome, so that a
/// blob is fetched once however many ask for it at the same time (`TieredStore.download`).
final class BlobDownloads: Sendable {
    /// What a waiter is given: the fetch's bytes or error; nil when it should fetch again itself
    /// (the fetcher was cancelled, or the download had ended already) or was cancelled.
    typealias Outcome = Result<Data, any Error>?

    /// The waiters of each download under way, by a number that names each one.
    private let waiters = Locked<[ContentDigest: [Int: CheckedContinuation<Outcome, Never>]]>([:])
    private let nextWaiter = Atomic<Int>(0)

    /// Marks the download of `digest` as under way.
    /// - Returns: whether the caller is the first to ask (it fetches the blob, then calls
    ///   `finish`); false when another's download is under way (`wait` for it).
    func begin(_ digest: ContentDigest) -> Bool {
        waiters.withLock { waiters in
            guard waiters[digest] == nil else { return false }
            waiters[digest] = [:]
            return true
        }
    }

    /// Ends the download of `digest` and hands `outcome` to those waiting for it.
    func finish(_ digest: ContentDigest, _ outcome: Outcome) {
        let waiting = waiters.withLock { $0.removeValue(forKey: digest) } ?? [:]
        for continuation in waiting.values { continuation.resume(returning: outcome) }
    }

    /// The outcome of the download of `digest` under way. A task cancelled while it waits stops
    /// waiting at once (nil), whatever the fetch does meanwhile (it may wait up to the stall
    /// timeout for a silent server).
    func wait(_ digest: ContentDigest) async -> Outcome {
        let number = nextWaiter.add(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Cancelled before this point, the handler found nothing to resume: checked
                // here, under the lock it takes.
                let waiting = waiters.withLock { waiters in
                    guard waiters[digest] != nil, !Task.isCancelled else { return false }
                    waiters[digest]?[number] = continuation
                    return true
                }
                if !waiting { continuation.resume(returning: nil) }
            }
        } onCancel: {
            let continuation = waiters.withLock { $0[digest]?.removeValue(forKey: number) }
            continuation?.resume(returning: nil)
        }
    }
}
