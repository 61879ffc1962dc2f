import TaskGraphCore

/// The remote records a run found, copied into the local store once their blobs are there
/// (docs/cache.md, "Two levels"): beside the run, a batch at a time, as soon as the blobs this
/// run downloaded complete one (an `exec`'s record holding its result inline names one blob,
/// its output's: right after the output is restored); the others at the end of the run
/// (`finish`), if their blobs are there then. Its own lock: every remote hit takes it twice,
/// beside `TieredStore`'s others.
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
        /// The records a batch took and has not written yet (`finish` writes them if it is cut short).
        var taken: [ContentDigest: ActionRecord] = [:]
        /// Whether a batch is enqueued that has not taken `completed` yet.
        var batchEnqueued = false

        /// Moves the record of `key` to `completed` when this run downloaded all its blobs.
        /// - Returns: whether a batch is to be enqueued for it (none is waiting to take it).
        mutating func complete(_ key: ContentDigest) -> Bool {
            guard let record = records[key], record.blobs.allSatisfy({ downloaded.contains($0) }) else { return false }
            records[key] = nil
            completed[key] = record
            guard !batchEnqueued else { return false }
            batchEnqueued = true
            return true
        }

        /// Every record not written yet.
        var unwritten: [ContentDigest: ActionRecord] {
            records.merging(completed) { first, _ in first }.merging(taken) { first, _ in first }
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
            for key in state.waiting.removeValue(forKey: digest) ?? [] {
                if state.complete(key) { start = true }
            }
            return start
        }
        if start { startBatch() }
    }

    /// Forgets the record of `key`: this run wrote its own (a remote record copied after it
    /// would replace it).
    func forget(_ key: ContentDigest) {
        state.withLock { state in
            state.records[key] = nil
            state.completed[key] = nil
        }
    }

    /// Starts a batch that writes the records in `completed` when it runs (those completed after
    /// it took them start the next).
    private func startBatch() {
        batches.enqueue { [self] in
            let batch = state.withLock { state in
                defer {
                    state.taken.merge(state.completed) { first, _ in first }
                    state.completed = [:]
                    state.batchEnqueued = false
                }
                return state.completed
            }
            await local.writeRecordsWithBlobs(batch, threads: 1)
            state.withLock { state in
                for key in batch.keys { state.taken[key] = nil }
            }
        }
    }

    /// At the end of a run: waits for the batches begun beside it (at most `timeout`), then
    /// copies every record not written yet whose blobs are in the local store: those completed
    /// that no batch took, those a batch cut short took, and the others.
    func finish(timeout: Duration) async {
        _ = await batches.drain(timeout: timeout)
        let left = state.withLock { state in
            defer { (state.records, state.completed, state.taken, state.batchEnqueued) = ([:], [:], [:], false) }
            return state.unwritten
        }
        await local.writeRecordsWithBlobs(left)
    }
}
