import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Up-to-date snapshots: their encoding, and that they hold only while every `stat` is the same.
@Suite struct UpToDateSnapshotTests {
    @Test func aSnapshotReadsBackAsWritten() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        let snapshot = UpToDateSnapshot(
            operations: 3, taken: 42,
            files: [
                .init(path: path, stat: FileStat.of(path)), .init(path: "/no/such/file"),
                .init(path: path + ".racy", stat: FileStat.of(path), digest: .sha256(of: Data("one".utf8))),
            ],
            operationEntries: [
                "copy": .init(
                    digest: .sha256(of: Data("result".utf8)),
                    stored: StoredResult(
                        digest: .sha256(of: Data("result".utf8)), resultKind: "exec.result", summary: "exit 0"),
                    files: [path, "/no/such/file"]),
                "all": .init(digest: .sha256(of: Data()), stored: nil, files: []),
                "held": .init(
                    digest: .sha256(of: Data("held".utf8)),
                    stored: StoredResult(
                        digest: .sha256(of: Data("held".utf8)), resultKind: "process.output", summary: "exit 0",
                        inline: Data("held".utf8)),
                    files: []),
            ])
        #expect(UpToDateSnapshot.decode(snapshot.encoded()) == snapshot)
        #expect(
            UpToDateSnapshot.decode(snapshot.encoded())?.operationEntries["held"]?.stored?.inline == Data("held".utf8))
        #expect(UpToDateSnapshot.decode(snapshot.encoded())?.operationEntries["copy"]?.stored?.inline == nil)
        #expect(UpToDateSnapshot.decode(snapshot.encoded().dropLast()) == nil)
        #expect(UpToDateSnapshot.decode(Data("TGUD".utf8)) == nil)
    }

    @Test func theEncodingIsPinned() {
        let stat = FileStat(size: 1, modified: 2, changed: 3, inode: 4, device: 5)
        let digest = ContentDigest.sha256(of: Data())
        let snapshot = UpToDateSnapshot(
            operations: 1, taken: 7,
            files: [
                .init(path: "/a", stat: stat), .init(path: "/b"), .init(path: "/c", stat: stat, digest: digest),
            ], operationEntries: ["x": .init(digest: digest, stored: nil, files: ["/b"])])
        let be = { (value: UInt64) in
            (0..<8).reversed().map { String(format: "%02x", (value >> ($0 * 8)) & 0xff) }.joined()
        }
        let string = { (text: String) in
            be(UInt64(text.utf8.count)) + text.utf8.map { String(format: "%02x", $0) }.joined()
        }
        let fields = [1, 2, 3, 4, 5].map { be(UInt64($0)) }.joined()
        let expected =
            "5447554402" + be(7) + be(1) + "00000003"
            + string("/a") + "01" + fields + string("/b") + "00" + string("/c") + "02" + fields + digest.hex
            + "00000001" + string("x") + digest.hex + "00" + "00000001" + "00000001"
        #expect(snapshot.encoded().map { String(format: "%02x", $0) }.joined() == expected)
    }

    @Test func aSnapshotHoldsWhileEveryStatIsTheSameAndForAnHourAtMost() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        let now = wallClockNanoseconds()
        let snapshot = UpToDateSnapshot(
            operations: 1, taken: now,
            files: [.init(path: path, stat: FileStat.of(path)), .init(path: "/no/such/file")],
            operationEntries: [:])
        #expect(snapshot.changedPaths().isEmpty)
        #expect(snapshot.isTrusted(now: now))
        #expect(!snapshot.isTrusted(now: now + UpToDateSnapshot.trustedFor))
        #expect(!snapshot.isTrusted(now: now - 1))

        try writeFile("two", to: path)
        #expect(snapshot.changedPaths() == [path])
    }

    @Test func aFileChangedTooRecentlyForItsStatIsHashedAgain() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        let now = wallClockNanoseconds()
        let current = UpToDateSnapshot(
            operations: 1, taken: now,
            files: [.init(path: path, stat: FileStat.of(path), digest: .sha256(of: Data("one".utf8)))],
            operationEntries: [:])
        #expect(current.changedPaths().isEmpty)
        let other = UpToDateSnapshot(
            operations: 1, taken: now,
            files: [.init(path: path, stat: FileStat.of(path), digest: .sha256(of: Data("two".utf8)))],
            operationEntries: [:])
        #expect(other.changedPaths() == [path])
    }

    @Test func aBaselineOfAFileChangedJustNowIsNotSettled() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        #expect(!UpToDateSnapshot.baseline(of: [path, "/no/such/file"]).isSettled)
        backdate(path, by: 60)
        #expect(UpToDateSnapshot.baseline(of: [path, "/no/such/file"]).isSettled)
    }
    @Test func theNextSnapshotKeepsTheReusedOperationsFilesAndMergesWhatTheRunSawInPathOrder() throws {
        let stat = { (size: Int64) in FileStat(size: size, modified: 2, changed: 3, inode: 4, device: 5) }
        let digest = ContentDigest.sha256(of: Data())
        let entry = { (files: [String]) in KnownResults.Entry(digest: digest, stored: nil, files: files) }
        let previous = try #require(
            UpToDateSnapshot.decode(
                UpToDateSnapshot(
                    operations: 3, taken: 7,
                    files: ["/a", "/b", "/c", "/d", "/old"].map { UpToDateSnapshot.Entry(path: $0, stat: stat(1)) },
                    operationEntries: ["x": entry(["/a", "/b"]), "y": entry(["/c", "/old"]), "z": entry(["/d"])]
                ).encoded()))
        let operations = [
            "x": previous.operationEntries["x"]!, "y": entry(["/c", "/e"]), "z": previous.operationEntries["z"]!,
        ]
        let observed: [String: FileObservations.Observed] = [
            "/c": .init(stat: stat(2)), "/e": .init(stat: stat(3), digest: digest), "/b": .init(stat: stat(1)),
        ]
        let baseline = UpToDateSnapshot.Baseline(files: ["/p": stat(4), "/absent": nil], isSettled: true)
        let next = try #require(
            UpToDateSnapshot.after(
                operations, observed: observed, baseline: baseline, previous: previous, reused: ["x", "z"], taken: 7))
        #expect(
            next.files == [
                .init(path: "/a", stat: stat(1)), .init(path: "/absent"), .init(path: "/b", stat: stat(1)),
                .init(path: "/c", stat: stat(2)), .init(path: "/d", stat: stat(1)),
                .init(path: "/e", stat: stat(3), digest: digest),
                .init(path: "/p", stat: stat(4)),
            ])
        // The same as a snapshot whose operations' files are found by path.
        #expect(next == UpToDateSnapshot(operations: 3, taken: 7, files: next.files, operationEntries: operations))
        #expect(UpToDateSnapshot.decode(next.encoded()) == next)

        // A file a reused operation rested on, seen with another `stat`; an operation's file
        // found nowhere.
        var rewritten = observed
        rewritten["/a"] = .init(stat: stat(9))
        #expect(
            UpToDateSnapshot.after(
                operations, observed: rewritten, baseline: baseline, previous: previous, reused: ["x", "z"], taken: 7)
                == nil)
        var unknown = operations
        unknown["w"] = entry(["/nowhere"])
        #expect(
            UpToDateSnapshot.after(
                unknown, observed: observed, baseline: baseline, previous: previous, reused: ["x", "z"], taken: 7)
                == nil)
    }

    private static let second: Int64 = 1_000_000_000

    /// `/old` and `/recent`, kept with their digest, last changed at 10 s and 19 s; with
    /// `settled`, `/old` by its `stat` alone.
    private static func oldAndRecentFiles(settled: Bool = false) -> [UpToDateSnapshot.Entry] {
        let stat = { (modified: Int64) in FileStat(size: 1, modified: modified, changed: modified, inode: 4, device: 5)
        }
        let digest = ContentDigest.sha256(of: Data())
        return [
            .init(path: "/old", stat: stat(10 * second), digest: settled ? nil : digest),
            .init(path: "/recent", stat: stat(19 * second), digest: digest),
        ]
    }

    /// A snapshot taken at 10 s of one operation resting on `oldAndRecentFiles()`.
    private static func oldAndRecent() -> UpToDateSnapshot {
        let digest = ContentDigest.sha256(of: Data())
        return UpToDateSnapshot(
            operations: 1, taken: 10 * second, files: oldAndRecentFiles(),
            operationEntries: ["x": KnownResults.Entry(digest: digest, stored: nil, files: ["/old", "/recent"])])
    }

    @Test func aKeptFileHashedAgainLongAfterItsLastChangeIsKeptByItsStatAlone() throws {
        let second = Self.second
        let previous = Self.oldAndRecent()
        let baseline = UpToDateSnapshot.Baseline(files: [:], isSettled: true)
        let next = try #require(
            UpToDateSnapshot.after(
                previous.operationEntries, observed: [:], baseline: baseline, previous: previous, reused: ["x"],
                taken: 20 * second, checked: 20 * second))
        // Changed 10 s before the check: a later change shows in its `stat`. 1 s before: hashed again.
        #expect(next.files == Self.oldAndRecentFiles(settled: true))
        let unchecked = try #require(
            UpToDateSnapshot.after(
                previous.operationEntries, observed: [:], baseline: baseline, previous: previous, reused: ["x"],
                taken: 20 * second))
        #expect(unchecked.files == previous.files)
    }

    @Test func aSnapshotFoundCurrentKeepsItsSettledFilesByStatAlone() throws {
        let second = Self.second
        let snapshot = Self.oldAndRecent()
        let settled = try #require(snapshot.settled(checkedAt: 20 * second))
        #expect(settled.files == Self.oldAndRecentFiles(settled: true))
        #expect(settled.taken == snapshot.taken && settled.fileIndices == snapshot.fileIndices)
        // Nothing more to settle a second later.
        #expect(settled.settled(checkedAt: 20 * second) == nil)
    }

    /// The store's check rewrites a current snapshot with its settled files, and leaves a
    /// changed one alone; `cache clear` is seen as the removal marker gone.
    @Test func theStoreRewritesACurrentSnapshotWithItsSettledFiles() async throws {
        let store = try temporaryStore()
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        backdate(path, by: 60)
        // The removal marker, made just now, does not unsettle the baseline.
        #expect(await store.upToDateBaseline(watching: [path]).isSettled)
        #expect(FileStat.of(store.layout.removals) != nil)
        let invocation = ContentDigest.sha256(of: Data("command".utf8))
        let kept = UpToDateSnapshot.Entry(path: path, stat: FileStat.of(path), digest: .sha256(of: Data("one".utf8)))
        let written = UpToDateSnapshot(
            operations: 1, taken: wallClockNanoseconds(), files: [kept], operationEntries: [:])
        try StoreIO.writeFile(written.encoded(), to: store.layout.snapshot(invocation), store.layout)
        let found = try #require(await store.upToDateSnapshot(invocation: invocation))
        #expect(found.changed.isEmpty && found.snapshot == written)
        let reread = try #require(await store.upToDateSnapshot(invocation: invocation))
        #expect(reread.snapshot.files == [.init(path: path, stat: FileStat.of(path))])
        _ = try await store.clear()
        #expect(FileStat.of(store.layout.removals) == nil)
    }

    /// A run whose baseline saw the removal marker while entries were being removed finds it
    /// changed afterwards, however quickly the removals follow one another.
    @Test func theRemovalMarkerChangesAfterEveryRemovalAndNeverRepeatsAStat() async throws {
        let store = try temporaryStore()
        _ = await store.upToDateBaseline(watching: [])
        var seen: [FileStat] = []
        for _ in 0..<20 {
            let during = ContentStore.whileRemoving(store.layout) { FileStat.of(store.layout.removals) }
            seen += [try #require(during), try #require(FileStat.of(store.layout.removals))]
        }
        #expect(Set(seen).count == seen.count)
    }

    /// A store that cannot be written has no removal marker, whose removal would not show: no
    /// snapshot rests on it.
    @Test func aBaselineWithoutTheRemovalMarkerIsNotSettled() async throws {
        let file = try emptyDirectory() + "/plain"
        try writeFile("", to: file)
        let store = ContentStore(root: file + "/cache", registry: .core)
        #expect(!(await store.upToDateBaseline(watching: [])).isSettled)
    }
}
