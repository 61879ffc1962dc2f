import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// A store damaged or tampered with: symbolic links where it has directories, a record copied
/// over another's, a FIFO in a record's place. Maintenance never leaves the store's tree; a read
/// never takes a wrong record, never blocks.
@Suite struct StoreTamperingTests {
    /// A store with one entry, every file older than the grace period, and beside it a
    /// directory `outside` holding `thesis.txt` and a file named as a blob, both old.
    private func storeBesideUserFiles() async throws -> (store: ContentStore, outside: String, userFiles: [String]) {
        let store = try temporaryStore()
        let digest = try await store.storeResult(BytesResult(Data("kept".utf8)))
        try await store.write(sampleRecord(result: digest), for: sampleKey("a"))
        let outside = try emptyDirectory("outside")
        let userFiles = [outside + "/thesis.txt", outside + "/" + String(repeating: "ab", count: 32)]
        for file in userFiles {
            try writeFile("the user's own work", to: file)
            backdate(file, by: 30 * 86_400)
        }
        backdateAll(under: store.root + "/v1", by: 30 * 86_400)
        return (store, outside, userFiles)
    }

    @Test func collectionDoesNotFollowALinkedTemporaryDirectory() async throws {
        let (store, outside, userFiles) = try await storeBesideUserFiles()
        let temporary = store.root + "/v1/tmp"
        try? FileManager.default.removeItem(atPath: temporary)
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: outside)
        let report = try await store.collectGarbage(maxSize: 0, maxAge: .seconds(0))
        #expect(report.linksSkipped == [temporary])
        #expect(report.temporariesRemoved == 0)
        #expect(userFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    @Test func collectionAndVerificationDoNotFollowALinkedFanOutDirectory() async throws {
        let (store, outside, userFiles) = try await storeBesideUserFiles()
        let fanOut = store.root + "/v1/blobs/zz"
        try FileManager.default.createSymbolicLink(atPath: fanOut, withDestinationPath: outside)
        let records = store.root + "/v1/records/zz"
        try FileManager.default.createSymbolicLink(atPath: records, withDestinationPath: outside)
        let verified = try await store.verify()
        #expect(verified.linksSkipped == [records, fanOut])
        #expect(verified.blobsChecked == 1 && verified.corruptBlobsRemoved == 0)
        let collected = try await store.collectGarbage(maxSize: 0, maxAge: .seconds(0))
        #expect(collected.linksSkipped == [records, fanOut])
        #expect(collected.blobsRemoved == 1, "the store's own blob, once its record went")
        #expect(userFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    @Test func aLinkedStoreDirectoryBelowTheRootIsNotListed() async throws {
        let (store, outside, userFiles) = try await storeBesideUserFiles()
        let blobs = store.root + "/v1/blobs"
        try FileManager.default.removeItem(atPath: blobs)
        try FileManager.default.createDirectory(atPath: outside + "/ab", withIntermediateDirectories: true)
        try writeFile("not a blob", to: outside + "/ab/" + String(repeating: "ab", count: 32))
        backdate(outside + "/ab/" + String(repeating: "ab", count: 32), by: 30 * 86_400)
        try FileManager.default.createSymbolicLink(atPath: blobs, withDestinationPath: outside)
        let report = try await store.collectGarbage(maxSize: 0, maxAge: .seconds(0))
        #expect(report.linksSkipped == [blobs])
        #expect(report.blobsRemoved == 0)
        #expect(FileManager.default.fileExists(atPath: outside + "/ab/" + String(repeating: "ab", count: 32)))
        #expect(userFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    @Test func theStoreRootMayItselfBeALink() async throws {
        let (store, _, _) = try await storeBesideUserFiles()
        let link = try emptyDirectory("link") + "/cache"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store.root)
        let linked = ContentStore(root: link, registry: .core)
        let report = try await linked.collectGarbage(maxSize: 0, maxAge: .seconds(0))
        #expect(report.linksSkipped == [])
        #expect(report.recordsRemoved == 1 && report.blobsRemoved == 1)
    }

    @Test func aRecordCopiedOverAnotherKeysRecordIsNotTaken() async throws {
        let store = try temporaryStore()
        let mine = try await store.storeResult(BytesResult(Data("mine".utf8)))
        let theirs = try await store.storeResult(BytesResult(Data("theirs".utf8)))
        try await store.write(sampleRecord(result: mine, key: "mine"), for: sampleKey("mine"))
        try await store.write(sampleRecord(result: theirs, key: "theirs"), for: sampleKey("theirs"))
        let target = store.recordPath(sampleKey("mine"))
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: store.recordPath(sampleKey("theirs")), toPath: target)
        #expect(await store.record(for: sampleKey("mine")) == nil)
        #expect(await store.reusableRecord(for: sampleKey("mine")) == nil)
        #expect(
            await store.records(for: [sampleKey("mine"), sampleKey("theirs")]).map { $0?.result } == [nil, theirs])
    }

    @Test func aFIFOInARecordsPlaceIsAMissNotAHang() async throws {
        let store = try temporaryStore()
        let result = try await store.storeResult(BytesResult(Data("x".utf8)))
        try await store.write(sampleRecord(result: result), for: sampleKey("a"))
        let path = store.recordPath(sampleKey("a"))
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        #expect(await store.record(for: sampleKey("a")) == nil)
        #expect(await store.reusableRecord(for: sampleKey("a")) == nil)
    }
}
