import Foundation
import Synchronization
import TaskGraphCore

/// The local store in front of a remote cache (docs/cache.md, "Remote cache"): records are
/// looked for locally first, then on the server; a remote hit's blobs are downloaded only when
/// something needs them (a running dependent, a missing output to restore), checked against
/// their digests and kept in the local store. A remote record is copied into the local store
/// once its blobs are there: beside the run as soon as the downloads of this run complete it,
/// else at the end (`drain`). What a run records is written locally and uploaded beside the run
/// (`drain` waits for it at the end).
///
/// A fault of the server (unreachable, an error status, a reset or a stall) gives one warning
/// and the run goes on with the local store alone: the remote cache never fails a run.
public final class TieredStore: ResultStore {
    /// The local store.
    public let local: ContentStore
    let remote: any RemoteCacheClient
    let uploads: UploadQueue?
    let signer: (any RecordSigner)?
    let warn: @Sendable (String) -> Void
    /// Whether the server failed during this run (and is left alone since): read by every
    /// request, so not behind a lock.
    private let failed = Atomic<Bool>(false)
    /// `statistics`' counts, added to by every request without a lock.
    private let hits = Atomic<Int>(0), misses = Atomic<Int>(0)
    let bytesDown = Atomic<Int64>(0), bytesUp = Atomic<Int64>(0)
    /// The operations remote blobs belong to and the blobs found damaged (`Damage`).
    let damage = Locked(Damage())
    /// Downloads under way, each with those waiting for its outcome, so that a blob is fetched
    /// once however many ask for it.
    let downloads = BlobDownloads()
    /// The remote records found, copied into the local store once their blobs are there.
    private let copies: RemoteRecordCopies

    struct Damage {
        /// The operation a remote record's blob belongs to, for the damage warning.
        var owners: [ContentDigest: String] = [:]
        /// Blobs found damaged on the server: uploaded again, whatever `HEAD` says.
        var damaged: Set<ContentDigest> = []
    }

    /// `local` in front of `remote`.
    /// - Parameters:
    ///   - uploading: whether recorded results are uploaded (false: a reader that never writes).
    ///   - signer: signs uploaded records and checks downloaded ones (an unsigned or wrongly
    ///     signed record is a miss).
    ///   - warn: shows a warning (once per fault, once per damaged entry).
    public init(
        local: ContentStore, remote: any RemoteCacheClient, uploading: Bool, signer: (any RecordSigner)?,
        concurrentUploads: Int = 8, warn: @escaping @Sendable (String) -> Void
    ) {
        self.local = local
        copies = RemoteRecordCopies(local: local)
        self.remote = remote
        uploads = uploading ? UploadQueue(limit: concurrentUploads) : nil
        self.signer = signer
        self.warn = warn
    }

    /// What the run did with the server so far.
    public var statistics: RemoteStatistics {
        RemoteStatistics(
            hits: hits.load(ordering: .relaxed), misses: misses.load(ordering: .relaxed),
            bytesDown: bytesDown.load(ordering: .relaxed), bytesUp: bytesUp.load(ordering: .relaxed))
    }

    // MARK: FileDigesting: the local store's.

    public func digest(ofFile path: String) async throws -> ContentDigest { try await local.digest(ofFile: path) }
    public func blockingDigest(ofFile path: String) throws -> ContentDigest { try local.blockingDigest(ofFile: path) }
    public func blockingDigests(ofFiles paths: [String]) throws -> [ContentDigest] {
        try local.blockingDigests(ofFiles: paths)
    }
    public func noteUncheckableDependency() { local.noteUncheckableDependency() }
    public func noteOutputFiles(_ paths: [String], forKey key: ContentDigest) {
        local.noteOutputFiles(paths, forKey: key)
    }

    // MARK: Records

    /// The local record, else the server's (as `ContentStore.reusableRecord` relocates it),
    /// all of its files left to `materialize`.
    public func record(for key: ContentDigest) async -> ActionRecord? {
        await reusableRecord(for: key)?.record
    }

    public func reusableRecord(for key: ContentDigest) async
        -> (record: ActionRecord, unverified: [ActionRecord.OutputFile])?
    {
        if let found = await local.reusableRecord(for: key) { return found }
        guard let original = await remoteRecord(for: key),
            let relocated = local.outputLocations.relocated(original, for: key)
        else { return nil }
        guard let record = await resultRelocated(relocated, from: original) else { return nil }
        // Its owner is noted already (`remoteRecord`): relocating keeps the output files'
        // digests, and a result stored again with this run's paths is stored locally.
        await copies.found(record, for: key)
        return (record, record.outputFiles)
    }

    /// The record the server holds for `key`, if it is intact, made for `key` and signed as
    /// required; its operation is noted as the owner of its blobs (before relocating it: a
    /// `save`'s result, read to name this run's path, may be damaged on the server, and says so
    /// like any other blob).
    private func remoteRecord(for key: ContentDigest) async -> ActionRecord? {
        guard !hasFailed else { return nil }
        let data: Data?
        do {
            data = try await remote.get("ac/" + key.hex)
        } catch {
            fault(error)
            return nil
        }
        let record = data.flatMap { RemoteRecordCoder.decode($0, key: key, signer: signer) }
        bytesDown.add(Int64(data?.count ?? 0), ordering: .relaxed)
        guard let record else {
            misses.add(1, ordering: .relaxed)
            return nil
        }
        hits.add(1, ordering: .relaxed)
        damage.withLock { damage in
            for blob in record.blobs { damage.owners[blob] = record.id }
        }
        return record
    }

    /// Writes `record` locally (no remote record is copied over it later) and enqueues its upload.
    public func write(_ record: ActionRecord, for key: ContentDigest) async throws {
        copies.forget(key)
        try await local.write(record, for: key)
        uploads?.enqueue { [self] in await upload(record, for: key) }
    }

    /// Whether the server failed during this run (and was left alone after it).
    public var hasFailed: Bool { failed.load(ordering: .relaxed) }

    // MARK: Blobs

    public func storeResult(_ result: any OperationResult) async throws -> ContentDigest {
        try await local.storeResult(result)
    }

    public func storeResult(_ result: any OperationResult, inliningUpTo limit: Int) async throws
        -> (digest: ContentDigest, inline: Data?)
    {
        try await local.storeResult(result, inliningUpTo: limit)
    }

    /// A result its record held, decoded; otherwise `loadResult(stored.digest)`.
    public func loadResult(_ stored: StoredResult) async throws -> any OperationResult {
        stored.inline == nil ? try await loadResult(stored.digest) : try await local.loadResult(stored)
    }

    public func storeFile(at path: String) async throws -> ContentDigest {
        try await local.storeFile(at: path)
    }

    public func storeFile(at path: String, inliningUpTo limit: Int) async throws
        -> (digest: ContentDigest, contents: Data?)
    {
        try await local.storeFile(at: path, inliningUpTo: limit)
    }

    /// A file its record holds, written from the record's bytes (nothing to download); otherwise
    /// `materialize(file.digest, at: file.path)`.
    public func materialize(_ file: ActionRecord.OutputFile) async throws -> Bool {
        file.contents == nil
            ? try await materialize(file.digest, at: file.path) : try await local.materialize(file)
    }

    /// The local blob, downloaded first when it is not in the local store.
    public func loadResult(_ digest: ContentDigest) async throws -> any OperationResult {
        do {
            return try await local.loadResult(digest)
        } catch let error as StoreError where Self.mayBeAbsent(error) {
            try await local.storeBlob(verified: try await download(digest).contents, as: digest)
            await copies.stored(digest)
            return try await local.loadResult(digest)
        }
    }

    /// The file restored from the local blob; when the local store lacks it, downloaded, then
    /// kept in the local store and written to `path` from the bytes that came down, in one trip
    /// to a blocking thread (checked once, not read back from the store).
    public func materialize(_ digest: ContentDigest, at path: String) async throws -> Bool {
        let fileExists: Bool
        let blobAbsent: Bool
        do {
            switch try await local.materializing(digest, at: path) {
            case .held: return false
            case .written: return true
            case .blobMissing(let exists): (fileExists, blobAbsent) = (exists, true)
            }
        } catch let error as StoreError where Self.mayBeAbsent(error) {
            (fileExists, blobAbsent) = (true, false)
        }
        let (contents, fetched) = try await download(digest)
        // Missing when this task looked; another task's whole fetch may have stored it since,
        // and writing it again is then a rename of the same checked bytes.
        let written = try await local.restore(
            contents, as: digest, at: path, fileExists: fileExists, blobAbsent: blobAbsent && fetched)
        await copies.stored(digest)
        return written
    }

    /// Whether `error` may mean that the blob is not in the local store: missing, or a read
    /// that failed while a download beside it was putting the blob in place.
    private static func mayBeAbsent(_ error: StoreError) -> Bool {
        switch error {
        case .missingEntry, .readFailed: true
        default: false
        }
    }

    /// Warns about the first fault of the server; after it, the server is left alone.
    func fault(_ error: any Error) {
        guard !(error is CancellationError) else { return }
        if !failed.exchange(true, ordering: .relaxed) {
            warn("the remote cache failed (\(error)); continuing with the local store")
        }
    }

    /// At the end of a run: waits for the uploads begun beside the run (at most `timeout`), then
    /// copies into the local store the remote records not copied beside the run whose blobs are
    /// there.
    /// - Returns: whether every upload finished.
    public func drain(timeout: Duration) async -> Bool {
        let finished = await uploads?.drain(timeout: timeout) ?? true
        await copies.finish()
        return finished
    }
}
