import Foundation
import Testing
import TaskGraphCore

@testable import TaskGraphStore

/// Up-to-date snapshots: their encoding, and that they hold only while every `stat` is the same.
@Suite struct UpToDateSnapshotTests {
    @Test func aSnapshotReadsBackAsWritten() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        let snapshot = UpToDateSnapshot(
            operations: 3, taken: 42, files: [(path, FileStat.of(path)), ("/no/such/file", nil)])
        #expect(UpToDateSnapshot.decode(snapshot.encoded()) == snapshot)
        #expect(UpToDateSnapshot.decode(snapshot.encoded().dropLast()) == nil)
        #expect(UpToDateSnapshot.decode(Data("TGUD".utf8)) == nil)
    }

    @Test func aSnapshotHoldsWhileEveryStatIsTheSameAndForAnHourAtMost() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        let now = wallClockNanoseconds()
        let snapshot = UpToDateSnapshot(operations: 1, taken: now, files: [(path, FileStat.of(path)), ("/no/such/file", nil)])
        #expect(snapshot.isCurrent(now: now))
        #expect(!snapshot.isCurrent(now: now + UpToDateSnapshot.trustedFor))
        #expect(!snapshot.isCurrent(now: now - 1))

        try writeFile("two", to: path)
        #expect(!snapshot.isCurrent(now: now))
    }

    @Test func aBaselineOfAFileChangedJustNowIsNotSettled() throws {
        let path = try emptyDirectory("snapshot") + "/file.txt"
        try writeFile("one", to: path)
        #expect(!UpToDateSnapshot.baseline(of: [path, "/no/such/file"]).isSettled)
        backdate(path, by: 60)
        #expect(UpToDateSnapshot.baseline(of: [path, "/no/such/file"]).isSettled)
    }
}
