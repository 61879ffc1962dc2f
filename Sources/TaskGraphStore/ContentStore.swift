import Foundation
import TaskGraphCore

/// The on-disk store of results of earlier runs (layout in docs/cache.md): content-addressed
/// blobs, action records naming them, the stat cache of file digests, and what each pipeline's
/// last run used. Several processes, on several machines sharing a file system, may use one
/// store at once: every file appears complete, by rename, and readers take no lock.
///
/// Every method runs its file work on `BlockingIO`, never on the cooperative pool, and reports
/// a store it cannot write as `StoreError` (the engine makes that a warning).
public final class ContentStore: ResultStore {
    /// The store's root directory (its files are under `<root>/v1`).
    public let root: String
    /// Where each file lives.
    let layout: StoreLayout
    /// The kinds `loadResult` reads back.
    let registry: ResultRegistry
    /// Remembered file digests.
    let statCache: StatCache
    /// The components memories `rememberedComponents` reads, by path, until `rememberComponents`
    /// compares with them.
    let memoriesRead = Locked<[String: Task<ComponentMemory.Loaded?, Never>]>([:])
    /// Bytes this process added to the store since its last `evictIfNeeded`.
    let bytesAdded = Locked<Int64>(0)
    /// Whether each file written is flushed to disk before it is renamed into place (`init`).
    public let flushesWrites: Bool
    /// Where this process's operations write their files, by key (`reusableRecord`).
    let outputLocations = OutputLocations()
    /// Whether the root was missing when `isNew()` first looked, once it has.
    private let rootWasMissing = Locked<Bool?>(nil)

    /// A record read more than this long after its last use is marked used again (its
    /// modification time set to now): least-recently-used eviction works to the hour, and a
    /// run of unchanged operations rewrites no inode: 1 hour.
    static let useResolution: Double = 3600
    /// Nothing younger than this is removed, except by `clear`: a run may have just stored a
    /// blob whose record it has not written yet. 10 minutes.
    public static let gracePeriod: Double = 600

    /// A store at `root`, reading results back through `registry`. Nothing is created until
    /// something is written.
    /// - Parameter flushingWrites: whether each file written is flushed to disk (`fsync`)
    ///   before it is renamed into place. Without, the system writes it later: a crash of the
    ///   machine may leave it damaged, which its reads notice and take for absent, so the work
    ///   runs again (docs/cache.md, "Writing"); the up-to-date snapshot and the plan, which
    ///   could decode damaged, are flushed all the same. False for a run on this machine, where
    ///   flushing 20,000 files costs more than it protects.
    public init(root: String, registry: ResultRegistry, flushingWrites: Bool = true) {
        self.root = root
        self.registry = registry
        layout = StoreLayout(root: root)
        statCache = StatCache(layout: layout, flushingWrites: flushingWrites)
        flushesWrites = flushingWrites
    }

    /// Whether the store's root did not exist when this process first asked: all the store then
    /// holds is what this process adds (`evictIfNeeded` need not list it). Ask before anything
    /// is written (the up-to-date check's plan creates the root): every later call gives the
    /// first answer.
    public func isNew() async -> Bool {
        if let known = rootWasMissing.withLock({ $0 }) { return known }
        let root = root
        let missing = (try? await BlockingIO.run { access(root, F_OK) != 0 }) ?? false
        return rootWasMissing.withLock { answer in
            if answer == nil { answer = missing }
            return answer ?? missing
        }
    }

    /// Where the store is by default: `$TASKGRAPH_CACHE_DIR`, else `$XDG_CACHE_HOME/taskgraph`
    /// (when absolute, as the XDG specification requires), else `$HOME/.cache/taskgraph`, else
    /// `.cache/taskgraph` in the working directory. Reads only `environment`.
    public static func defaultRoot(environment: [String: String]) -> String {
        if let directory = environment["TASKGRAPH_CACHE_DIR"], !directory.isEmpty { return directory }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/taskgraph" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/taskgraph" }
        return ".cache/taskgraph"
    }

    /// How many files were read to hash them (for tests: an unchanged file is never read).
    package var filesHashed: Int { statCache.hashCount }

    /// The SHA-256 of the contents of the file at `path`, remembered across runs while the file
    /// is unchanged (`stat-cache`, persisted by `flush()`).
    /// - Throws: `OperationError.readFailed` naming the path.
    public func digest(ofFile path: String) async throws -> ContentDigest {
        try await BlockingIO.run { [statCache] in try statCache.digest(ofFile: path) }
    }

    /// `digest(ofFile:)` on the calling thread, a blocking one.
    /// - Throws: `OperationError.readFailed` naming the path.
    public func blockingDigest(ofFile path: String) throws -> ContentDigest {
        try statCache.digest(ofFile: path)
    }

    /// `blockingDigest(ofFile:)` of each of `paths`, in order, looked up together (sorted
    /// paths pay: each directory is walked once).
    /// - Throws: `OperationError.readFailed` naming the first path that cannot be read.
    public func blockingDigests(ofFiles paths: [String]) throws -> [ContentDigest] {
        try statCache.digests(ofFiles: paths)
    }

    /// The record stored for `key`, if it is intact, was written for `key` (its components hash
    /// to it: a record copied over another's is not taken) and every blob it names is present;
    /// marks it used. Any failure reads as no record: at worst the operation runs again.
    public func record(for key: ContentDigest) async -> ActionRecord? {
        let layout = layout
        return try? await BlockingIO.run { Self.readRecord(for: key, layout) }
    }

    /// The record stored for `key`, as `record(for:)` reads it, and those of its output files
    /// the stat cache does not know to hold their blob now (their `stat` unchanged since they
    /// were last hashed to that digest), in the same trip to a blocking thread. Its output files
    /// are where this process's operation of that key writes them (`OutputLocations`); a
    /// `save`'s result recorded for another path is stored again naming this one.
    public func reusableRecord(for key: ContentDigest) async
        -> (record: ActionRecord, unverified: [ActionRecord.OutputFile])?
    {
        let layout = layout
        let statCache = statCache
        let locations = outputLocations
        let read = try? await BlockingIO.run { () -> (ActionRecord, ActionRecord, [ActionRecord.OutputFile])? in
            guard let original = Self.readRecord(for: key, layout),
                let record = locations.relocated(original, for: key)
            else { return nil }
            let unverified = record.outputFiles.filter { file in
                guard let stat = FileStat.of(file.path) else { return true }
                return statCache.remembered(file.path, stat) != file.digest
            }
            return (original, record, unverified)
        }
        guard let (original, relocated, unverified) = read ?? nil,
            let record = await resultRelocated(relocated, from: original)
        else { return nil }
        return (record, unverified)
    }

    /// Notes where the operation of `key` writes its files, for `reusableRecord`.
    public func noteOutputFiles(_ paths: [String], forKey key: ContentDigest) {
        outputLocations.note(paths, forKey: key)
    }

    /// The records of `keys`, in order, as `record(for:)` reads each, in one trip to a
    /// blocking thread: for a caller that has many keys at once (a level of ready operations),
    /// a trip costs more than reading one record.
    public func records(for keys: [ContentDigest]) async -> [ActionRecord?] {
        let layout = layout
        return (try? await BlockingIO.run { keys.map { Self.readRecord(for: $0, layout) } })
            ?? Array(repeating: nil, count: keys.count)
    }

    /// Writes `record` for `key`, replacing any earlier one.
    /// - Throws: `StoreError.writeFailed`.
    public func write(_ record: ActionRecord, for key: ContentDigest) async throws {
        let data = ActionRecordCoder.encode(record)
        let path = layout.record(key)
        let layout = layout
        let flush = flushesWrites
        try await BlockingIO.run { try StoreIO.writeFile(data, to: path, layout, flush: flush, besideIt: true) }
        bytesAdded.withLock { $0 += Int64(data.count) }
    }

    /// Reads, checks and marks used the record of `key`. It is opened without blocking (a FIFO
    /// put in its place is not waited on) and must be a regular file whose components hash to
    /// `key`. Blocking.
    package static func readRecord(for key: ContentDigest, _ layout: StoreLayout) -> ActionRecord? {
        let path = layout.record(key)
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let stat = FileStat(info)
        guard let record = ActionRecordCoder.read(descriptor, size: stat.size), record.components.key == key,
            record.blobs.allSatisfy({ access(layout.blob($0), F_OK) == 0 })
        else { return nil }
        StoreIO.touch(path, ifOlderThan: useResolution, modified: stat.modifiedSeconds)
        return record
    }
}
