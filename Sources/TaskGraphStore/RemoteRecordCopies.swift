import TaskGraphCore

/// The remote records a run found, copied into the local store once their blobs are there
/// (docs/cache.md, "Two levels"): beside the run, by the call that completes one (the blob this
/// run downloaded last, or the record found last), on its own thread. A record that names no
/// blob (an `exec`'s, holding its result and small outputs) is written when found; one whose only
/// blob is an output of more than `ActionRecord.inlineLimit` bytes right after that output is
/// restored, with no trip to another thread; the others at the end of the run (`finish`), if
/// their blobs are there then. Its own lock: every remote hit takes it twice, beside
/// `TieredStore`'s others.
final class RemoteRecordCopies: Sendable {
    private struct State {
        /// Records found on the server, by key, not copied yet.
        var records: [ContentDigest: ActionRecord] = [:]
        /// The keys of `records` waiting for a blob this run has not downloaded, by blob.
        var waiting: [ContentDigest: [ContentDigest]] = [:]
        /// Blobs this run downloaded into the local store.
        var downloaded: Set<ContentDigest> = []
        /// The records handed to the call that completed them, until it has written them: one
        /// whose write did not happen (the call was cancelled, the write failed) stays here, and
        /// `finish` writes it.
        var pending: [ContentDigest: ActionRecord] = [:]

        /// Moves the record of `key` to `pending` and `ready` when this run downloaded all its blobs.
        mutating func complete(_ key: ContentDigest, into ready: inout [ContentDigest: ActionRecord]) {
            guard let record = records[key], record.blobs.allSatisfy({ downloaded.contains($0) }) else { return }
            records[key] = nil
            pending[key] = record
            ready[key] = record
        }
    }

    private let local: ContentStore
    private let state = Locked(State())

    /// Copies into `local`.
    init(local: ContentStore) {
        self.local = local
    }

    /// Notes `record`, found on the server for `key` (relocated to this run's paths), and copies
    /// it if this run downloaded its blobs already.
    func found(_ record: ActionRecord, for key: ContentDigest) async {
        let ready = state.withLock { state in
            state.records[key] = record
            for blob in Set(record.blobs) where !state.downloaded.contains(blob) {
                state.waiting[blob, default: []].append(key)
            }
            var ready: [ContentDigest: ActionRecord] = [:]
            state.complete(key, into: &ready)
            return ready
        }
        await write(ready)
    }

    /// Notes that this run downloaded the blob `digest` into the local store, and copies the
    /// records it completes.
    func stored(_ digest: ContentDigest) async {
        let ready = state.withLock { state in
            state.downloaded.insert(digest)
            var ready: [ContentDigest: ActionRecord] = [:]
            for key in state.waiting.removeValue(forKey: digest) ?? [] { state.complete(key, into: &ready) }
            return ready
        }
        await write(ready)
    }

    /// Forgets the record of `key`: this run wrote its own (a remote record copied after it
    /// would replace it).
    func forget(_ key: ContentDigest) {
        state.withLock { state in
            state.records[key] = nil
            state.pending[key] = nil
        }
    }

    /// Writes `ready` into the local store on the calling thread when it is a blocking one
    /// (their blobs, which this run downloaded, are not looked for again).
    private func write(_ ready: [ContentDigest: ActionRecord]) async {
        guard !ready.isEmpty else { return }
        let written = await local.writeRecordsWithBlobs(ready, threads: 1, blobsStored: true)
        state.withLock { state in
            for key in written { state.pending[key] = nil }
        }
    }

    /// At the end of a run: copies every record not written yet whose blobs are in the local
    /// store: those whose write was cut short, and the others.
    func finish() async {
        let left = state.withLock { state in
            defer { (state.records, state.pending) = ([:], [:]) }
            return state.records.merging(state.pending) { first, _ in first }
        }
        await local.writeRecordsWithBlobs(left)
    }
}
