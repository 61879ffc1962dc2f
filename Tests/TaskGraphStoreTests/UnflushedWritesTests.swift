import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// A store that does not flush its writes (a run on this machine): every file is complete and
/// in place once its write returns, no temporary file is left, a file that cannot be placed is a
/// thrown reason, and what a crash of the machine may leave (an empty file) reads as absent.
@Suite struct UnflushedWritesTests {
    /// A store in a fresh directory that does not flush its writes.
    private func unflushedStore() throws -> ContentStore {
        ContentStore(root: try emptyDirectory() + "/cache", registry: .core, flushingWrites: false)
    }

    /// The names in the store's `tmp/`.
    private func temporaryFiles(of store: ContentStore) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: store.root + "/v1/tmp")) ?? []
    }

    @Test func blobsAndRecordsAreInPlaceOnceEachWriteReturns() async throws {
        let store = try unflushedStore()
        #expect(!store.flushesWrites)
        let source = try emptyDirectory() + "/out.txt"
        try writeFile("written", to: source)
        let reader = ContentStore(root: store.root, registry: .core)
        for index in 0..<40 {
            let result = try await store.storeResult(BytesResult(Data("result \(index)".utf8)))
            let file = ActionRecord.OutputFile(path: source, digest: try await store.storeFile(at: source))
            let record = sampleRecord(result: result, file: file, id: "step[\(index)]", key: "\(index)")
            try await store.write(record, for: sampleKey("\(index)"))
            #expect(await reader.record(for: sampleKey("\(index)")) == record)
        }
        #expect(try readFile(store.blobPath(ContentDigest.sha256(of: Data("written".utf8)))) == "written")
        #expect(temporaryFiles(of: store) == [])
        // Nor beside the records and blobs, where those are written.
        #expect(temporaryFilesAnywhere(in: store) == [])
    }

    @Test func aRecordThatCannotBePlacedThrowsItsReasonAndLeavesNoTemporaryFile() async throws {
        let store = try unflushedStore()
        let result = try await store.storeResult(BytesResult(Data("hello".utf8)))
        // A regular file where the records' directory belongs: no record can be renamed there.
        try writeFile("", to: store.root + "/v1/records")
        let error = await #expect(throws: StoreError.self) {
            try await store.write(sampleRecord(result: result, id: "a"), for: sampleKey("a"))
        }
        #expect(error?.description == "cannot write to the cache at \(store.root): Not a directory")
        #expect(temporaryFiles(of: store) == [])
    }

    @Test func aBlobACrashLeftEmptyIsWrittenAgainWhenItsResultIsStoredAgain() async throws {
        let store = try unflushedStore()
        let source = try emptyDirectory() + "/out.txt"
        try writeFile("written", to: source)
        let file = try await store.storeFile(at: source)
        let result = try await store.storeResult(BytesResult(Data("hello".utf8)))
        for digest in [file, result] { try Data().write(to: URL(fileURLWithPath: store.blobPath(digest))) }
        #expect(try await store.storeFile(at: source) == file)
        #expect(try await store.storeResult(BytesResult(Data("hello".utf8))) == result)
        #expect(try readFile(store.blobPath(file)) == "written")
        #expect(try await store.loadResult(result) as? BytesResult == BytesResult(Data("hello".utf8)))
    }

    @Test func filesACrashLeftEmptyReadAsAbsent() async throws {
        let store = try unflushedStore()
        let result = try await store.storeResult(BytesResult(Data("hello".utf8)))
        try await store.write(sampleRecord(result: result), for: sampleKey("a"))
        // What the system may leave of files renamed but not yet written when the machine stops.
        try Data().write(to: URL(fileURLWithPath: store.recordPath(sampleKey("a"))))
        try Data().write(to: URL(fileURLWithPath: store.blobPath(result)))
        #expect(await store.record(for: sampleKey("a")) == nil)
        let error = await #expect(throws: StoreError.self) { try await store.loadResult(result) }
        #expect(error?.description == "corrupt cache entry \(result)")
    }
}
