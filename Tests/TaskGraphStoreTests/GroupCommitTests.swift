import Foundation
import Testing
import TaskGraphCore

@testable import TaskGraphStore

/// A store that groups commits: blobs and records are in place, complete, once `placeWrites`
/// returns, no temporary file is left, and what could not be placed comes back as a reason.
@Suite struct GroupCommitTests {
    /// A store in a fresh directory that groups commits.
    private func groupingStore() throws -> ContentStore {
        ContentStore(root: try emptyDirectory() + "/cache", registry: .core, groupingCommits: true)
    }

    /// The names in the store's `tmp/`.
    private func temporaryFiles(of store: ContentStore) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: store.root + "/v1/tmp")) ?? []
    }

    @Test func blobsAndRecordsAreInPlaceOnceWritesArePlaced() async throws {
        let store = try groupingStore()
        #expect(store.groupsCommits)
        let source = try emptyDirectory() + "/out.txt"
        try writeFile("written", to: source)
        var records: [ContentDigest: ActionRecord] = [:]
        for index in 0..<40 {
            let result = try await store.storeResult(BytesArtifact(Data("result \(index)".utf8)))
            let file = ActionRecord.OutputFile(path: source, digest: try await store.storeFile(at: source))
            let record = sampleRecord(result: result, file: file, id: "step[\(index)]")
            try await store.write(record, for: sampleKey("\(index)"))
            records[sampleKey("\(index)")] = record
        }
        #expect(await store.placeWrites() == [])
        let reader = ContentStore(root: store.root, registry: .core)
        for (key, record) in records { #expect(await reader.record(for: key) == record) }
        #expect(try readFile(store.blobPath(ContentDigest.sha256(of: Data("written".utf8)))) == "written")
        #expect(temporaryFiles(of: store) == [])
    }

    @Test func placingWithNothingWrittenReturnsAtOnce() async throws {
        let store = try groupingStore()
        #expect(await store.placeWrites() == [])
        #expect(await ContentStore(root: store.root, registry: .core).placeWrites() == [])
    }

    @Test func whatCannotBePlacedIsSaidOnceAndLeavesNoTemporaryFile() async throws {
        let store = try groupingStore()
        let result = try await store.storeResult(BytesArtifact(Data("hello".utf8)))
        #expect(await store.placeWrites() == [])
        // A regular file where the records' directory belongs: no record can be renamed there.
        try writeFile("", to: store.root + "/v1/records")
        try await store.write(sampleRecord(result: result, id: "a"), for: sampleKey("a"))
        try await store.write(sampleRecord(result: result, id: "b"), for: sampleKey("b"))
        #expect(await store.placeWrites() == ["cannot write to the cache at \(store.root): Not a directory"])
        #expect(temporaryFiles(of: store) == [])
        #expect(await store.placeWrites() == [])
    }
}
