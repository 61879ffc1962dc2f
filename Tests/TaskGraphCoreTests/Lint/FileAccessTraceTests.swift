import Foundation
import Testing

@testable import TaskGraphCore

/// Replaying the tracer's records: what counts as read, and which written files still stand.
@Suite struct FileAccessTraceTests {
    private func trace(_ records: [String]) -> FileAccessTrace {
        FileAccessTrace(records: Data(records.map { $0 + "\0" }.joined().utf8), canonical: PathResolver.normalized)
    }

    @Test func aFileReadBeforeTheProgramWroteItCountsAsRead() {
        let replayed = trace(["r/p/in.txt", "w/p/out.txt", "r/p/out.txt", "r/p/in.txt"])
        #expect(replayed.read == ["/p/in.txt"])
        #expect(replayed.written == ["/p/out.txt"])
    }

    @Test func temporaryFilesRemovedOrRenamedAwayAreNotWritten() {
        let replayed = trace([
            "w/p/.out.tmp", "d/p/.out.tmp", "w/p/out.txt", "w/p/scratch", "r/p/scratch", "d/p/scratch",
        ])
        #expect(replayed.read.isEmpty)
        #expect(replayed.written == ["/p/out.txt"])
    }

    @Test func oneFileNamedTwoWaysIsOneFileAndMalformedRecordsAreSkipped() {
        let replayed = trace(["r/p/src/../in.txt", "w/p/./out.txt", "r/p/out.txt", "xbogus", "r", "rrelative/path", ""])
        #expect(replayed.read == ["/p/in.txt"])
        #expect(replayed.written == ["/p/out.txt"])
    }

    @Test func aMissingFileIsCanonicalThroughItsDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("link").path,
            withDestinationPath: directory.appendingPathComponent("real").path)
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = FileAccessTrace.canonicalPath(directory.appendingPathComponent("real").path)
        #expect(FileAccessTrace.canonicalPath(directory.path + "/link/gone.txt") == real + "/gone.txt")
        #expect(FileAccessTrace.canonicalPath(directory.path + "/link/../real") == real)
    }
}
