import Foundation
import OperationTestSupport
import TaskGraphCore
import Testing

/// A record made for another output directory, reused from a store: every result that names
/// paths (`OperationResult.withPaths(mapped:)`) names this run's files, whatever its type.
@Suite struct ResultRelocationTests {
    private static let key = ContentDigest.sha256(of: Data("a key".utf8))

    /// A store holding a record of `result` for `key` whose output files are `written`
    /// (made, with the same bytes, in a temporary directory), and the record.
    private func store(
        _ result: any OperationResult, writing written: [String]
    ) async throws -> (MemoryResultStore, ActionRecord) {
        let store = MemoryResultStore()
        let directory = NSTemporaryDirectory() + "taskgraph-relocation-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("twelve bytes".utf8).write(to: URL(fileURLWithPath: directory + "/file"))
        let file = try await store.storeFile(at: directory + "/file")
        let record = ActionRecord(
            result: try await store.storeResult(result), resultKind: type(of: result).kind, summary: result.summary,
            outputFiles: written.map { ActionRecord.OutputFile(path: $0, digest: file) }, seconds: 0,
            recordedAt: 0, id: "copy", components: KeyComponents())
        try await store.write(record, for: Self.key)
        return (store, record)
    }

    @Test func aResultNamingItsOutputFilesNamesWhereThisRunWritesThem() async throws {
        let (store, original) = try await store(
            CopiedFiles(paths: ["/a/out/one", "/a/out/two"]), writing: ["/a/out/one", "/a/out/two"])
        store.noteOutputFiles(["/b/out/one", "/b/out/two"], forKey: Self.key)

        let record = try #require(await store.reusableRecord(for: Self.key)?.record)
        #expect(record.outputFiles.map(\.path) == ["/b/out/one", "/b/out/two"])
        #expect(record.result != original.result)
        #expect(record.summary == "2 files")
        let result = try await store.loadResult(StoredResult(record))
        #expect(result as? CopiedFiles == CopiedFiles(paths: ["/b/out/one", "/b/out/two"]))
    }

    @Test func aSavedFileNamesWhereThisRunWritesIt() async throws {
        let (store, _) = try await store(
            WrittenFile(path: "/a/out/copy.txt", byteCount: 12), writing: ["/a/out/copy.txt"])
        store.noteOutputFiles(["/b/out/copy.txt"], forKey: Self.key)

        let record = try #require(await store.reusableRecord(for: Self.key)?.record)
        #expect(record.summary == "/b/out/copy.txt (12 B)")
        let result = try await store.loadResult(StoredResult(record))
        #expect(result as? WrittenFile == WrittenFile(path: "/b/out/copy.txt", byteCount: 12))
    }

    @Test func aResultNamingAPathItsRecordDoesNotWriteIsNotReused() async throws {
        let (store, _) = try await store(
            CopiedFiles(paths: ["/a/out/one", "/a/in/source"]), writing: ["/a/out/one"])
        store.noteOutputFiles(["/b/out/one"], forKey: Self.key)

        #expect(await store.reusableRecord(for: Self.key) == nil)
    }

    @Test func recordsListingDifferentNumbersOfOutputFilesAreNotRelocated() async throws {
        let (store, original) = try await store(
            CopiedFiles(paths: ["/a/out/one", "/a/out/two"]), writing: ["/a/out/one", "/a/out/two"])
        var relocated = original
        relocated.outputFiles = [ActionRecord.OutputFile(path: "/b/out/one", digest: original.outputFiles[0].digest)]

        #expect(await store.resultRelocated(relocated, from: original) == nil)
    }

    @Test func aResultNamingNoPathIsReusedAsItWasRecorded() async throws {
        let (store, original) = try await store(BytesResult(Data("stdout".utf8)), writing: ["/a/out/one"])
        store.noteOutputFiles(["/b/out/one"], forKey: Self.key)

        let record = try #require(await store.reusableRecord(for: Self.key)?.record)
        #expect(record.outputFiles.map(\.path) == ["/b/out/one"])
        #expect(record.result == original.result)
        #expect(record.summary == original.summary)
    }
}
