import Foundation
import TaskGraphCore

/// The digests of files already hashed, by path, with what `stat` said of them then: a file
/// whose size, modification and change times, inode and device are all unchanged is not read
/// again. Kept in the store (`stat-cache`, docs/cache.md) and shared by every pipeline.
///
/// Racy clean: a file changed again within the file system's timestamp granularity right after
/// it was hashed keeps the same times. So, as git does, an entry is kept only when the file's
/// modification time is at least `racyWindow` before hashing started; a file written just
/// before it is hashed is hashed again next time (and remembered then).
///
/// Blocking (it loads and saves its file): call it through `BlockingIO.run`.
final class StatCache: Sendable {
    /// One remembered file.
    struct Entry: Sendable, Equatable {
        var stat: FileStat
        var digest: ContentDigest
        /// When it was last found current, in nanoseconds since 1970.
        var checked: Int64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var isLoaded = false
        /// The `stat` of the file the entries were loaded from or last saved to (nil: none).
        var fileStat: FileStat?
        /// Bumped by every change not saved yet.
        var changes = 0
        var hashCount = 0
        /// What this run's digests were taken from, while observing (`startObserving()`).
        var observations: FileObservations?
    }

    /// How recent a file's last change may be, before hashing started, for its entry to be
    /// trusted later: 2 s, coarser than the timestamps of common local and network file systems.
    static let racyWindow: Int64 = 2_000_000_000
    /// Entries not found current for this long are dropped when saving: 30 days.
    static let keptFor: Int64 = 30 * 86_400 * 1_000_000_000
    /// An entry in use is saved again with a new check time once its last is this old: 1 day.
    static let refreshedAfter: Int64 = 86_400 * 1_000_000_000

    static let magic: [UInt8] = Array("TGSC".utf8)
    static let version: UInt8 = 1

    private let layout: StoreLayout
    /// Whether `save` flushes the file before renaming it into place (`ContentStore.init`).
    private let flushesWrites: Bool
    private let state = Locked(State())

    init(layout: StoreLayout, flushingWrites: Bool) {
        self.layout = layout
        flushesWrites = flushingWrites
    }

    /// How many files were read to hash them.
    var hashCount: Int { state.withLock { $0.hashCount } }

    /// From now on, notes every file whose digest is taken, with its `stat` then.
    func startObserving() {
        state.withLock { $0.observations = FileObservations() }
    }

    /// The files noted since `startObserving()`, if any were.
    var observations: FileObservations? { state.withLock { $0.observations } }

    /// Notes that a digest depended on something no file's `stat` shows.
    func noteUncheckableDependency() {
        state.withLock { $0.observations?.isComplete = false }
    }

    /// The digest of the file at `path`: remembered when `stat` shows it unchanged, else read
    /// and hashed (and remembered unless racy).
    /// - Throws: `OperationError.readFailed` naming `path`.
    func digest(ofFile path: String) throws -> ContentDigest {
        try digest(ofFile: path, remembered: FileStat.of(path).flatMap { remembered(path, $0) })
    }

    /// `digest(ofFile:)` of each of `paths`, in order: their `stat`s taken together
    /// (`stats(of:)`), the remembered ones looked up in one turn of the lock.
    /// - Throws: `OperationError.readFailed` naming the first path that cannot be read.
    func digests(ofFiles paths: [String]) throws -> [ContentDigest] {
        let stats = Self.stats(of: paths)
        let now = wallClockNanoseconds()
        let known = loadedState { state in
            zip(paths, stats).map { path, stat in stat.flatMap { Self.remembered(path, $0, now: now, in: &state) } }
        }
        return try zip(paths, known).map { path, digest in try self.digest(ofFile: path, remembered: digest) }
    }

    /// What `FileStat.of` says of each of `paths`, in order: each looked up from its directory
    /// (`DirectoryStatter`: sorted paths pay), more than 1,024 in pieces on several threads.
    private static func stats(of paths: [String]) -> [FileStat?] {
        @Sendable func statted(_ paths: ArraySlice<String>) -> [FileStat?] {
            var statter = DirectoryStatter()
            return paths.map { statter.stat($0) }
        }
        let piece = 1_024
        guard paths.count > piece else { return statted(paths[...]) }
        let count = (paths.count + piece - 1) / piece
        let pieces = Locked([[FileStat?]](repeating: [], count: count))
        ParallelBands.forEach(count) { index in
            let part = statted(paths[index * piece..<min(paths.count, (index + 1) * piece)])
            pieces.withLock { $0[index] = part }
        }
        return pieces.withLock { $0.flatMap { $0 } }
    }

    /// `remembered` when known, else the digest of the file at `path`, read and hashed (and
    /// remembered unless racy).
    private func digest(ofFile path: String, remembered: ContentDigest?) throws -> ContentDigest {
        if let remembered { return remembered }
        let hashed = try FileHasher.hash(path)
        remember(path, hashed)
        return hashed.digest
    }

    /// The digest remembered for `path` if `stat` matches its entry in every field.
    func remembered(_ path: String, _ stat: FileStat) -> ContentDigest? {
        let now = wallClockNanoseconds()
        return loadedState { state in Self.remembered(path, stat, now: now, in: &state) }
    }

    /// `remembered(_:_:)` with the lock held: notes the file as observed and refreshes an
    /// entry's check time once a day.
    private static func remembered(_ path: String, _ stat: FileStat, now: Int64, in state: inout State)
        -> ContentDigest?
    {
        guard let entry = state.entries[path], entry.stat == stat else { return nil }
        state.observations?.note(path, .init(stat: stat))
        if now - entry.checked > refreshedAfter {
            state.entries[path]?.checked = now
            state.changes += 1
        }
        return entry.digest
    }

    /// Remembers what hashing `path` found, unless the file changed while being read or so
    /// shortly before that it is racy; counts the hash either way.
    func remember(_ path: String, _ hashed: FileHasher.Hashed) {
        loadedState { state in
            state.hashCount += 1
            guard let stat = hashed.stableStat else {
                state.observations?.isComplete = false
                return
            }
            guard stat.modified < hashed.started - Self.racyWindow else {
                state.observations?.note(path, .init(stat: stat, digest: hashed.digest))
                return
            }
            state.observations?.note(path, .init(stat: stat))
            state.entries[path] = Entry(stat: stat, digest: hashed.digest, checked: hashed.started)
            state.changes += 1
        }
    }

    /// Writes the entries to the store if any changed, merged with what another process saved
    /// meanwhile (for a path in both, the entry checked last wins; an entry is only ever used
    /// when every stat field matches, so either is correct).
    func save() throws(StoreError) {
        let (entries, changes, loadedFrom) = state.withLock { ($0.entries, $0.changes, $0.fileStat) }
        guard changes > 0 else { return }
        let now = wallClockNanoseconds()
        var merged = entries
        // Read again only when another process saved since (its file is another one then).
        if loadedFrom == nil || FileStat.of(layout.statCache) != loadedFrom {
            merged = Self.decode(try StoreIO.mapped(layout.statCache, layout) ?? Data())
            for (path, entry) in entries where (merged[path]?.checked ?? .min) < entry.checked {
                merged[path] = entry
            }
        }
        try StoreIO.writeFile(Self.encode(merged, now: now), to: layout.statCache, layout, flush: flushesWrites)
        let saved = FileStat.of(layout.statCache)
        state.withLock { state in
            state.changes -= changes
            state.fileStat = saved
        }
    }

    /// Loads the entries from the store unless already done.
    func load() {
        loadedState { _ in }
    }

    /// Runs `body` on the state, loading the entries from the store first if not yet done. An
    /// unreadable or damaged file counts as empty: every file is hashed again.
    private func loadedState<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock { state in
            if !state.isLoaded {
                // The `stat` first: a file replaced between the two is read again when saving.
                state.fileStat = FileStat.of(layout.statCache)
                state.entries = Self.decode(((try? StoreIO.mapped(layout.statCache, layout)) ?? nil) ?? Data())
                state.isLoaded = true
            }
            return body(&state)
        }
    }

    /// The file's encoding: `TGSC`, version 1, a `u32` count, then for each entry its path,
    /// size, modification and change times (ns), inode, device, digest and check time (ns), in
    /// no particular order. Entries not found current for `keptFor` before `now` are left out.
    static func encode(_ entries: [String: Entry], now: Int64) -> Data {
        let isKept = { (entry: Entry) in now - entry.checked < keptFor }
        var writer = ResultWriter(capacity: 64 + entries.count * 140)
        writer.append(raw: magic)
        writer.append(version)
        writer.append(count: entries.values.reduce(0) { $0 + (isKept($1) ? 1 : 0) })
        for (path, entry) in entries where isKept(entry) {
            writer.append(string: path)
            writer.append(entry.stat.size)
            writer.append(entry.stat.modified)
            writer.append(entry.stat.changed)
            writer.append(entry.stat.inode)
            writer.append(entry.stat.device)
            writer.append(digest: entry.digest)
            writer.append(entry.checked)
        }
        return writer.data
    }

    /// The entries in `data`, or none when it is not a stat cache of this version.
    static func decode(_ data: Data) -> [String: Entry] {
        data.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            var entries: [String: Entry] = [:]
            do {
                try reader.header(magic, version: version)
                let count = try reader.count(minimumItemSize: 88)
                entries.reserveCapacity(count)
                for _ in 0..<count {
                    let path = try reader.string()
                    let stat = FileStat(
                        size: try reader.int64(), modified: try reader.int64(), changed: try reader.int64(),
                        inode: try reader.uint64(), device: try reader.uint64())
                    entries[path] = Entry(stat: stat, digest: try reader.digest(), checked: try reader.int64())
                }
                try reader.finish()
                return entries
            } catch {
                return [:]
            }
        }
    }
}
