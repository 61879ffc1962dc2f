import Foundation
import TaskGraphCore

/// Proof that a run reused every operation's result, and of everything that decision rested
/// on: each file its keys and hits were decided from, the pipeline file, the program, the
/// directories programs were looked up in, and the store's own state, each with what `stat`
/// said of it. While all of these are unchanged, the same command reuses everything again, so
/// it can say so without loading the pipeline (docs/cache.md, "Nothing changed: the fast
/// path"). Kept in the store as `snapshots/<invocation>`.
public struct UpToDateSnapshot: Sendable, Equatable {
    /// What a run depends on besides the files its keys read, taken before the pipeline is read.
    public struct Baseline: Sendable {
        /// Each path's `stat`, nil for a path that does not exist.
        let files: [String: FileStat?]
        /// Whether every path that exists was last changed long enough before it was taken to
        /// show any later change (`StatCache.racyWindow`).
        let isSettled: Bool
    }

    /// One path the decision rested on.
    struct Entry: Sendable, Equatable {
        var path: String
        /// Its `stat`, nil when it did not exist.
        var stat: FileStat?
        /// Its digest, for a file changed too recently for `stat` to show a later change: it is
        /// hashed again to confirm it.
        var digest: ContentDigest?

        /// Whether the path still has `stat` (and, with `digest`, those contents). Blocking.
        func isCurrent() -> Bool {
            isCurrent(now: FileStat.of(path))
        }

        /// `isCurrent()`, looking the path up through `statter`. Blocking.
        func isCurrent(statting statter: inout DirectoryStatter) -> Bool {
            isCurrent(now: statter.stat(path))
        }

        /// Whether the path, whose `stat` is now `now`, still has `stat` (and, with `digest`,
        /// those contents). Blocking.
        private func isCurrent(now: FileStat?) -> Bool {
            guard now == stat else { return false }
            guard let digest else { return true }
            return (try? FileHasher.hash(path))?.digest == digest
        }
    }

    /// How many operations the next identical run would reuse.
    public let operations: Int
    /// When the run ended (nanoseconds since 1970).
    let taken: Int64
    /// Every path the decision rested on, sorted.
    let files: [Entry]
    /// Each operation's result and the files it rested on, by id: what a run after a change
    /// starts from (`KnownResults`).
    public let operationEntries: [String: KnownResults.Entry]
    /// Each operation's files as indices into `files`, by id.
    let fileIndices: [String: [Int32]]

    /// A snapshot of `files` (sorted by path) and `operationEntries`, whose files are found
    /// among `files` by path (one missing is left out).
    init(operations: Int, taken: Int64, files: [Entry], operationEntries: [String: KnownResults.Entry]) {
        let index = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1.path, Int32($0)) })
        self.init(
            operations: operations, taken: taken, files: files, operationEntries: operationEntries,
            fileIndices: operationEntries.mapValues { $0.files.compactMap { index[$0] } })
    }

    /// A snapshot with every field given.
    init(
        operations: Int, taken: Int64, files: [Entry], operationEntries: [String: KnownResults.Entry],
        fileIndices: [String: [Int32]]
    ) {
        self.operations = operations
        self.taken = taken
        self.files = files
        self.operationEntries = operationEntries
        self.fileIndices = fileIndices
    }

    /// A snapshot is trusted this long after it was taken: the hits it stands for leave the
    /// records' use times alone, which are kept exact to `ContentStore.useResolution`.
    static let trustedFor: Int64 = Int64(ContentStore.useResolution) * 1_000_000_000

    static let magic: [UInt8] = Array("TGUD".utf8)
    static let version: UInt8 = 2

    /// Takes a baseline of `paths` and `markers`: files only ever replaced by a rename, each
    /// with its own modification time to the nanosecond (the store's removal marker), whose
    /// changes show in their `stat` however recent the last. A missing marker leaves the
    /// baseline unsettled: its removal would not show. Blocking.
    static func baseline(of paths: [String], markers: [String] = []) -> Baseline {
        let taken = wallClockNanoseconds()
        var files: [String: FileStat?] = [:]
        for path in paths { files[path] = FileStat.of(path) }
        var isSettled = files.values.allSatisfy { stat in
            stat.map { $0.modified < taken - StatCache.racyWindow } ?? true
        }
        for path in markers {
            let stat = FileStat.of(path)
            files[path] = stat
            if stat == nil { isSettled = false }
        }
        return Baseline(files: files, isSettled: isSettled)
    }

    /// The paths that no longer have the `stat` (or, for a file hashed again, the contents)
    /// they had, every path checked, on several threads. Blocking.
    func changedPaths() -> Set<String> {
        let files = self.files
        let piece = 1_024
        let changed = Locked(Set<String>())
        ParallelBands.forEach((files.count + piece - 1) / piece) { index in
            var statter = DirectoryStatter()
            let paths = files[index * piece..<min(files.count, (index + 1) * piece)]
                .filter { !$0.isCurrent(statting: &statter) }.map(\.path)
            if !paths.isEmpty { changed.withLock { $0.formUnion(paths) } }
        }
        return changed.withLock { $0 }
    }

    /// The operations (by id) one of whose files is among `paths`, found by index.
    func operations(touching paths: Set<String>) -> Set<String> {
        var touched = [Bool](repeating: false, count: files.count)
        for path in paths { if let index = Self.index(of: path, in: files) { touched[index] = true } }
        return Set(fileIndices.lazy.filter { $0.value.contains { touched[Int($0)] } }.map(\.key))
    }

    /// Whether the snapshot is recent enough to trust at `now`.
    func isTrusted(now: Int64) -> Bool {
        now >= taken && now - taken < Self.trustedFor
    }

    /// Whether each of `paths` is in the snapshot and none of them is among `changed`.
    func hasUnchanged(_ paths: [String], changed: Set<String>) -> Bool {
        let paths = Set(paths)
        return paths.isDisjoint(with: changed) && entries(of: paths).count == paths.count
    }

    /// The entries of `paths` (those it has).
    func entries(of paths: Set<String>) -> [Entry] {
        files.filter { paths.contains($0.path) }
    }

    /// The file's encoding: `TGUD`, version 2, the time taken and the operation count (`u64`),
    /// a `u32` count, then for each path: the path, then `u8` 0 for a path that did not exist,
    /// or `u8` 1 and its size, modification and change times (ns), inode and device, or `u8` 2,
    /// the same and its digest (32 bytes); then a `u32` count of operations and for each, sorted
    /// by id: the id, its result digest (32 bytes), `u8` 1 with the stored result's kind and
    /// summary (strings), `u8` 2 with the same and the encoded result its record holds
    /// (`u64` count and bytes), or `u8` 0 for a constant result, and a `u32` count of files, each the
    /// `u32` index of its path among the paths above.
    func encoded() -> Data {
        let parts = encodedParts()
        return parts[0] + parts[1]
    }

    /// `encoded()` in two parts, to be written one after the other: joining them would hold
    /// the snapshot twice (at the end of a first run of 2,000 `exec`s, its peak of memory).
    func encodedParts() -> [Data] {
        // The paths and the operations are encoded on two threads: at the end of a run, only
        // the store's other, smaller updates and the summary run beside it.
        let parts = Locked([Data](repeating: Data(), count: 2))
        ParallelBands.forEach(2, threads: 2) { part in
            let data = part == 0 ? encodedFiles() : encodedOperations()
            parts.withLock { $0[part] = data }
        }
        return parts.withLock { $0 }
    }

    /// The encoding up to the operations' count: the header and the paths.
    private func encodedFiles() -> Data {
        var writer = ResultWriter(capacity: 64 + files.count * 90)
        writer.append(raw: Self.magic)
        writer.append(Self.version)
        writer.append(taken)
        writer.append(UInt64(operations))
        writer.append(count: files.count)
        for entry in files {
            writer.append(string: entry.path)
            guard let stat = entry.stat else {
                writer.append(UInt8(0))
                continue
            }
            writer.append(UInt8(entry.digest == nil ? 1 : 2))
            writer.append(stat.size)
            writer.append(stat.modified)
            writer.append(stat.changed)
            writer.append(stat.inode)
            writer.append(stat.device)
            if let digest = entry.digest { writer.append(digest: digest) }
        }
        return writer.data
    }

    /// The encoding from the operations' count to the end.
    private func encodedOperations() -> Data {
        // Its exact size: an operation's result held inline (an `exec`'s, about 110 bytes) would
        // outgrow an estimate, and growing the buffer copies it.
        let size = operationEntries.reduce(4) { size, operation in
            let stored = operation.value.stored.map { stored in
                16 + stored.resultKind.utf8.count + stored.summary.utf8.count
                    + (stored.inline.map { 8 + $0.count } ?? 0)
            }
            return size + 8 + operation.key.utf8.count + 33 + (stored ?? 0) + 4 + 4
                * (fileIndices[operation.key]?.count ?? 0)
        }
        var writer = ResultWriter(capacity: size)
        writer.append(count: operationEntries.count)
        // The ids alone are sorted: sorting the entries would copy one at each comparison.
        for id in operationEntries.keys.sorted() {
            guard let entry = operationEntries[id] else { continue }
            writer.append(string: id)
            writer.append(digest: entry.digest)
            if let stored = entry.stored {
                writer.append(UInt8(stored.inline == nil ? 1 : 2))
                writer.append(string: stored.resultKind)
                writer.append(string: stored.summary)
                if let inline = stored.inline { writer.append(lengthPrefixed: inline) }
            } else {
                writer.append(UInt8(0))
            }
            let indices = fileIndices[id] ?? []
            writer.append(count: indices.count)
            for index in indices { writer.append(UInt32(index)) }
        }
        return writer.data
    }

    /// The snapshot in `data`, or nil when it is not one of this version.
    static func decode(_ data: Data) -> UpToDateSnapshot? {
        data.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            do {
                try reader.header(magic, version: version)
                let taken = try reader.int64()
                let operations = Int(truncatingIfNeeded: try reader.uint64())
                let count = try reader.count(minimumItemSize: 9)
                var files: [Entry] = []
                files.reserveCapacity(count)
                for _ in 0..<count {
                    let path = try reader.string()
                    let kind = try reader.uint8()
                    guard kind != 0 else {
                        files.append(Entry(path: path))
                        continue
                    }
                    let stat = FileStat(
                        size: try reader.int64(), modified: try reader.int64(), changed: try reader.int64(),
                        inode: try reader.uint64(), device: try reader.uint64())
                    files.append(Entry(path: path, stat: stat, digest: kind == 2 ? try reader.digest() : nil))
                }
                let operationCount = try reader.count(minimumItemSize: 45)
                var operationEntries: [String: KnownResults.Entry] = [:]
                var fileIndices: [String: [Int32]] = [:]
                operationEntries.reserveCapacity(operationCount)
                fileIndices.reserveCapacity(operationCount)
                for _ in 0..<operationCount {
                    let id = try reader.string()
                    let digest = try reader.digest()
                    let stored: StoredResult?
                    switch try reader.uint8() {
                    case 0: stored = nil
                    case let form where form <= 2:
                        let kind = try reader.string()
                        let summary = try reader.string()
                        stored = StoredResult(
                            digest: digest, resultKind: kind, summary: summary,
                            inline: form == 2 ? try reader.lengthPrefixed() : nil)
                    default: throw ByteReader.Malformed()
                    }
                    let count = try reader.count(minimumItemSize: 4)
                    var paths: [String] = []
                    var indices: [Int32] = []
                    paths.reserveCapacity(count)
                    indices.reserveCapacity(count)
                    for _ in 0..<count {
                        let index = Int(try reader.uint32())
                        guard index < files.count else { throw ByteReader.Malformed() }
                        paths.append(files[index].path)
                        indices.append(Int32(index))
                    }
                    operationEntries[id] = KnownResults.Entry(digest: digest, stored: stored, files: paths)
                    fileIndices[id] = indices
                }
                try reader.finish()
                return UpToDateSnapshot(
                    operations: operations, taken: taken, files: files, operationEntries: operationEntries,
                    fileIndices: fileIndices)
            } catch {
                return nil
            }
        }
    }
}
