import Foundation
import Testing
import TaskGraphCore

@testable import TaskGraphStore

/// Up-to-date snapshots: their encoding, and that they hold only while every `stat` is the same.
@Suite struct UpToDateSnapshotTests {
    @Test func aSnapshotReadsBackAsWritten() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        let snapshot = UpToDateSnapshot(operations: 3, taken: 42, files: [
            .init(path: path, stat: FileStat.of(path)), .init(path: "/no/such/file"),
            .init(path: path + ".racy", stat: FileStat.of(path), digest: .sha256(of: Data("one".utf8))),
        ], operationEntries: [
            "copy": .init(
                digest: .sha256(of: Data("result".utf8)),
                stored: StoredResult(digest: .sha256(of: Data("result".utf8)), resultKind: "exec.result", summary: "exit 0"),
                files: [path, "/no/such/file"]),
            "all": .init(digest: .sha256(of: Data()), stored: nil, files: []),
        ])
        #expect(UpToDateSnapshot.decode(snapshot.encoded()) == snapshot)
        #expect(UpToDateSnapshot.decode(snapshot.encoded().dropLast()) == nil)
        #expect(UpToDateSnapshot.decode(Data("TGUD".utf8)) == nil)
    }

    @Test func aSnapshotHoldsWhileEveryStatIsTheSameAndForAnHourAtMost() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        let now = wallClockNanoseconds()
        let snapshot = UpToDateSnapshot(
            operations: 1, taken: now, files: [.init(path: path, stat: FileStat.of(path)), .init(path: "/no/such/file")],
            operationEntries: [:])
        #expect(snapshot.isCurrent(now: now))
        #expect(!snapshot.isCurrent(now: now + UpToDateSnapshot.trustedFor))
        #expect(!snapshot.isCurrent(now: now - 1))

        try writeFile("two", to: path)
        #expect(!snapshot.isCurrent(now: now))
    }

    @Test func aFileChangedTooRecentlyForItsStatIsHashedAgain() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        let now = wallClockNanoseconds()
        let current = UpToDateSnapshot(
            operations: 1, taken: now, files: [.init(path: path, stat: FileStat.of(path), digest: .sha256(of: Data("one".utf8)))],
            operationEntries: [:])
        #expect(current.isCurrent(now: now))
        let other = UpToDateSnapshot(
            operations: 1, taken: now, files: [.init(path: path, stat: FileStat.of(path), digest: .sha256(of: Data("two".utf8)))],
            operationEntries: [:])
        #expect(!other.isCurrent(now: now))
    }

    @Test func aBaselineOfAFileChangedJustNowIsNotSettled() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        #expect(!UpToDateSnapshot.baseline(of: [path, "/no/such/file"]).isSettled)
        backdate(path, by: 60)
        #expect(UpToDateSnapshot.baseline(of: [path, "/no/such/file"]).isSettled)
    }
}
