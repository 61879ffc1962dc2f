import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// What a job run in a scratch directory leaves, named by the driver's paths: every path a
/// result names (`OperationResult.withPaths(mapped:)`), whatever its type.
@Suite struct ScratchDirectoryTests {
    private let scratch = ScratchDirectory(root: "/tmp/taskgraph-job-1")

    @Test func everyPathAResultNamesBeneathTheDirectoryIsTheDriversAgain() {
        let copied = scratch.back(CopiedFiles(paths: ["/tmp/taskgraph-job-1/work/out/a", "/usr/bin/env"]))
        #expect(copied as? CopiedFiles == CopiedFiles(paths: ["/work/out/a", "/usr/bin/env"]))
        let loaded = scratch.back(LoadedFile(path: "/tmp/taskgraph-job-1/work/in.txt", data: Data("twelve".utf8)))
        #expect(loaded as? LoadedFile == LoadedFile(path: "/work/in.txt", data: Data("twelve".utf8)))
        let written = scratch.back(WrittenFile(path: "/tmp/taskgraph-job-1/work/out/b", byteCount: 6))
        #expect(written as? WrittenFile == WrittenFile(path: "/work/out/b", byteCount: 6))
    }

    @Test func aResultNamingNoPathIsHandedBackAsItIs() {
        let bytes = scratch.back(BytesResult(Data("/tmp/taskgraph-job-1/not/a/path".utf8)))
        #expect(bytes as? BytesResult == BytesResult(Data("/tmp/taskgraph-job-1/not/a/path".utf8)))
    }
}
