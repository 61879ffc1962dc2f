import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Output files of at most `ActionRecord.inlineLimit` bytes held by their record
/// (docs/cache.md, "Records"): no blob is written for them, a hit restores them from the record's
/// bytes, a record whose held bytes are damaged reads as no record, and collection and
/// verification follow only the blobs a record names.
@Suite struct HeldFilesTests {
    /// Records an operation of `key` that wrote `contents` to `out.txt` in `directory`, its
    /// result and files held when they are small enough.
    private func recorded(
        _ contents: Data, in directory: String, store: ContentStore, key: String = "held"
    ) async throws -> ActionRecord {
        let path = directory + "/out.txt"
        try contents.write(to: URL(fileURLWithPath: path))
        let record = try await store.storeBlobs(
            of: BytesResult(Data("result".utf8)), outputFiles: [path], id: "write",
            components: sampleComponents(text: key),
            seconds: 0.01, inlining: true)
        try await store.write(record, for: sampleKey(key))
        return record
    }

    /// The blobs in `store`.
    private func blobs(in store: ContentStore) -> [String] {
        let names = FileManager.default.enumerator(atPath: store.root + "/v1/blobs")?.allObjects as? [String] ?? []
        return names.filter { ($0 as NSString).lastPathComponent.count == 64 }
    }

    @Test func aFileOfExactly1KiBIsHeldAndOneByteMoreIsABlob() async throws {
        let store = try temporaryStore()
        let directory = try emptyDirectory("outputs")
        let held = Data(repeating: 7, count: ActionRecord.inlineLimit)
        let small = try await recorded(held, in: directory, store: store)
        #expect(small.outputFiles[0].contents == held)
        #expect(small.outputFiles[0].digest == .sha256(of: held))
        #expect(small.blobs.isEmpty)
        #expect(blobs(in: store).isEmpty, "the record is the one file created")
        #expect(await store.record(for: sampleKey("held")) == small)

        let larger = Data(repeating: 8, count: ActionRecord.inlineLimit + 1)
        let large = try await recorded(larger, in: directory, store: store, key: "large")
        #expect(large.outputFiles[0].contents == nil)
        #expect(large.blobs == [.sha256(of: larger)])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.blobPath(.sha256(of: larger)))) == larger)
        #expect(await store.record(for: sampleKey("large")) == large)
    }

    @Test func aRecordHoldsAt64KiBOfFilesAndTheRestAreBlobs() async throws {
        let store = try temporaryStore()
        let directory = try emptyDirectory("outputs")
        // 70 files of 1 KiB, each different: the first 64 fill the record's 64 KiB.
        let files = (0..<70).map { directory + "/out\($0).txt" }
        for (index, path) in files.enumerated() {
            try Data(repeating: UInt8(index), count: ActionRecord.inlineLimit).write(to: URL(fileURLWithPath: path))
        }
        let record = try await store.storeBlobs(
            of: BytesResult(Data("result".utf8)), outputFiles: files, id: "many",
            components: sampleComponents(text: "many"), seconds: 0.01, inlining: true)
        try await store.write(record, for: sampleKey("many"))
        #expect(record.outputFiles.prefix(64).allSatisfy { $0.contents != nil })
        #expect(record.outputFiles.dropFirst(64).allSatisfy { $0.contents == nil })
        #expect(record.outputFiles.compactMap(\.contents).reduce(0) { $0 + $1.count } == ActionRecord.heldFilesLimit)
        let blobFiles = record.outputFiles.dropFirst(64).map { $0.digest.hex.prefix(2) + "/" + $0.digest.hex }
        #expect(Set(blobs(in: store)) == Set(blobFiles))
        #expect(await store.record(for: sampleKey("many")) == record)
    }

    @Test func aHeldFileDeletedIsRestoredByteForByteFromTheRecord() async throws {
        let store = try temporaryStore()
        let directory = try emptyDirectory("outputs")
        let contents = Data("d41d8cd98f00b204e9800998ecf8427e  data.txt\n".utf8)
        _ = try await recorded(contents, in: directory, store: store)
        try FileManager.default.removeItem(atPath: directory + "/out.txt")

        let (record, unverified) = try #require(await store.reusableRecord(for: sampleKey("held")))
        #expect(unverified == record.outputFiles)
        #expect(try await store.materialize(unverified[0]))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/out.txt")) == contents)
        #expect(try await store.materialize(unverified[0]) == false, "a file holding its bytes is left alone")
        try Data("changed\n".utf8).write(to: URL(fileURLWithPath: directory + "/out.txt"))
        #expect(try await store.materialize(unverified[0]))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/out.txt")) == contents)
    }

    @Test func aRecordWhoseHeldFileIsDamagedReadsAsNoRecordAndVerificationRemovesIt() async throws {
        let store = try temporaryStore()
        let directory = try emptyDirectory("outputs")
        let contents = Data("held output bytes\n".utf8)
        _ = try await recorded(contents, in: directory, store: store)
        let path = store.recordPath(sampleKey("held"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let offset = try #require(bytes.firstRange(of: contents)).lowerBound
        bytes[offset] ^= 1
        try bytes.write(to: URL(fileURLWithPath: path))

        #expect(await store.record(for: sampleKey("held")) == nil)
        var damaged = ActionRecord.OutputFile(path: directory + "/out.txt", digest: .sha256(of: contents))
        damaged.contents = Data("held output bytez\n".utf8)
        try FileManager.default.removeItem(atPath: damaged.path)
        await #expect(throws: StoreError.corruptEntry(damaged.digest)) { try await store.materialize(damaged) }
        let report = try await store.verify()
        #expect(report.recordsRemoved == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func collectionKeepsARecordThatHoldsItsFilesAndNamesNoBlob() async throws {
        let store = try temporaryStore()
        let directory = try emptyDirectory("outputs")
        let record = try await recorded(Data("small\n".utf8), in: directory, store: store)
        backdateAll(under: store.root + "/v1", by: 2 * ContentStore.gracePeriod)
        let report = try await store.collectGarbage(maxSize: nil, maxAge: nil)
        #expect(report.recordsRemoved == 0)
        #expect(await store.record(for: sampleKey("held")) == record)
    }
}
