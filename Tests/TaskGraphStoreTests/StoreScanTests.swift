import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Listing the store by directory descriptors: entry names parsed without strings, strays
/// told apart, records read for the blobs they name, removals by directory.
@Suite struct StoreScanTests {
    @Test func entryNamesReadOnlyLowercaseHexOfTheRightLength() {
        let digest = ContentDigest.sha256(of: Data("name".utf8))
        #expect(digest.hex.withCString { EntryName(hex: $0) } == EntryName(digest))
        #expect(EntryName(digest).hex == digest.hex)
        for name in [digest.hex.uppercased(), String(digest.hex.dropLast()), digest.hex + "0", "write-1-AbCdEf", ""] {
            #expect(name.withCString { EntryName(hex: $0) } == nil, "\(name)")
        }
    }

    @Test func findsRecordsBlobsAndStraysAndWhatEachRecordNames() async throws {
        let store = try temporaryStore()
        let result = try await store.storeResult(BytesResult(Data("result".utf8)))
        let file = try await store.storeResult(BytesResult(Data("file".utf8)))
        try await store.write(
            sampleRecord(result: result, file: .init(path: "/out/a", digest: file)), for: sampleKey("a"))
        let damaged = store.recordPath(sampleKey("damaged"))
        try FileManager.default.createDirectory(
            atPath: (damaged as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try writeFile("not a record", to: damaged)
        let stray = (store.blobPath(result) as NSString).deletingLastPathComponent + "/notes.txt"
        try writeFile("stray", to: stray)
        let scan = StoreScan.take(StoreLayout(root: store.root), readingRecords: true)
        #expect(Set(scan.blobs.map(\.name)) == [EntryName(result), EntryName(file)])
        let named = Dictionary(
            uniqueKeysWithValues: scan.records.map { record in
                (scan.path(of: record.entry), record.blobs.map { $0.map { scan.blobs[Int($0)].name } })
            })
        #expect(named == [store.recordPath(sampleKey("a")): [EntryName(result), EntryName(file)], damaged: nil])
        #expect(scan.records.map(\.missesBlob) == [false, false])
        #expect(scan.strays.map(\.path) == [stray])
        #expect(scan.blobs.first { $0.name == EntryName(result) }.map { scan.path(of: $0) } == store.blobPath(result))
    }

    @Test func aRecordNamingAMissingBlobSaysSoAndKeepsTheOthers() async throws {
        let store = try temporaryStore()
        let result = try await store.storeResult(BytesResult(Data("result".utf8)))
        let missing = ContentDigest.sha256(of: Data("never stored".utf8))
        try await store.write(
            sampleRecord(result: result, file: .init(path: "/out/a", digest: missing)), for: sampleKey("a"))
        let scan = StoreScan.take(StoreLayout(root: store.root), readingRecords: true)
        #expect(scan.records.count == 1)
        #expect(scan.records.first?.blobs == [0])
        #expect(scan.records.first?.missesBlob == true)
        #expect(scan.blobs.map(\.name) == [EntryName(result)])
    }

    @Test func entryTableFindsEveryNameAndNothingElse() {
        let names = (0..<1000).map { EntryName(ContentDigest.sha256(of: Data("entry \($0)".utf8))) }
        let table = EntryTable(names)
        #expect((0..<1000).allSatisfy { table.index(of: names[$0]) == $0 })
        #expect(table.index(of: EntryName(ContentDigest.sha256(of: Data("absent".utf8)))) == nil)
        #expect(EntryTable([]).index(of: names[0]) == nil)
    }

    @Test func removalKeepsWhatWasMarkedRecentSinceTheScan() async throws {
        let store = try temporaryStore()
        var digests: [ContentDigest] = []
        for index in 0..<40 {
            digests.append(try await store.storeResult(BytesResult(Data("blob \(index)".utf8))))
        }
        backdateAll(under: store.root + "/v1/blobs", by: 2 * ContentStore.gracePeriod)
        let layout = StoreLayout(root: store.root)
        let scan = StoreScan.take(layout, readingRecords: false)
        // A run stores blob 0 again after the scan: it is marked recent and must stay.
        _ = try await store.storeResult(BytesResult(Data("blob 0".utf8)))
        let cutoff = Date().timeIntervalSince1970 - ContentStore.gracePeriod
        let removed = ParallelRemoval.remove(scan.blobs, in: scan.directories, layout, unlessModifiedAfter: cutoff)
        #expect(removed.count == 39)
        let kept = scan.blobs.first { $0.name == EntryName(digests[0]) }
        #expect(removed.bytes == scan.blobs.reduce(0) { $0 + $1.size } - (kept?.size ?? 0))
        #expect(
            digests.map { FileManager.default.fileExists(atPath: store.blobPath($0)) } == [true]
                + Array(repeating: false, count: 39))
    }
}
