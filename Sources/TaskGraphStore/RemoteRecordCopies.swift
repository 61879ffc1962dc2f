import TaskGraphCore

/// The remote records a run found, copied into the local store once their blobs are there
/// (docs/cache.md, "Two levels"): beside the run, a batch at a time, as soon as the blobs this
/// run downloaded complete one (an `exec`'s record, whose one blob is its output's, right after
/// the output is restored); the others at the end of the run (`finish`), if their blobs are
/// there then. Its own lock: every remote hit takes it twice, beside `TieredStore`'s others.
final class RemoteRecordCopies: Sendable {
    private struct State {
        /// Records found on the server, by key, not copied yet.
        var records: [ContentDigest: ActionRecord] = [:]
        /// The keys of `records` waiting for a blob this run has not downloaded, by blob.
        var waiting: [ContentDigest: [ContentDigest]] = [:]
        /// Blobs this run downloaded into the local store.
        var downloaded: Set<ContentDigest> = []
        /// Records whose blobs this run downloaded, for the next batch.
        var completed: [ContentDigest: ActionRecord] = [:]

        /// Moves the record of `key` to `completed` when this run downloaded all its blobs.
        /// - Returns: whether it is the first in `completed` (a batch is to be started).
        mutating func complete(_ key: ContentDigest) -> Bool {
            guard let record = records[key], record.blobs.allSatisfy({ downloaded.contains($0) }) else { return false }
            records[key] = nil
            completed[key] = record
            return completed.count == 1
        }
    }

    private let local: ContentStore
    private let state = Locked(State())
    /// Writes the batches, one at a time.
    private let batches = UploadQueue(limit: 1)

    /// Copies into `local`.
    init(local: ContentStore) {
        self.local = local
    }

    /// Notes `record`, found on the server for `key` (relocated to this run's paths).
    func found(_ record: ActionRecord, for key: ContentDigest) {
        let start = state.withLock { state -> Bool in
            state.records[key] = record
            for blob in Set(record.blobs) where !state.downloaded.contains(blob) {
                state.waiting[blob, default: []].append(key)
            }
            return state.complete(key)
        }
        if start { startBatch() }
    }

    /// Notes that this run downloaded the blob `digest` into the local store.
    func stored(_ digest: ContentDigest) {
        let start = state.withLock { state -> Bool in
            state.downloaded.insert(digest)
            var start = false
            for key in state.waiting.removeValue(forKey: digest) ?? [] where state.complete(key) { start = true }
            return start
        }
        if start { startBatch() }
    }

    /// Starts a batch that writes the records in `completed` when it runs (those completed after
    /// it took them start the next).
    private func startBatch() {
        batches.enqueue { [self] in
            let batch = state.withLock { state in
                defer { state.completed = [:] }
                return state.completed
            }
            await local.writeRecordsWithBlobs(batch, threads: 1)
        }
    }

    /// At the end of a run: waits for the batches begun beside it (at most `timeout`: a batch
    /// cut short leaves its records to the next run, which finds them on the server again), then
    /// copies the other records whose blobs are in the local store, with those completed that
    /// no batch took.
    func finish(timeout: Duration) async {
        _ = await batches.drain(timeout: timeout)
        let left = state.withLock { $0.records.merging($0.completed) { first, _ in first } }
        await local.writeRecordsWithBlobs(left)
    }
}
