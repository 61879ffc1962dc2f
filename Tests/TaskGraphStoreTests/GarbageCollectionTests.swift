import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Collection: least recently used entries go first, by size and by age; young files, entries
/// in use and blobs still named stay; leftovers of killed writers go.
@Suite struct GarbageCollectionTests {
    /// Stores `count` entries, each a record naming a result of `size` bytes; the first is the
    /// least recently used (`count` hours ago), the last the most (1 hour ago).
    private func filledStore(_ count: Int, size: Int = 1000) async throws -> (ContentStore, [ContentDigest]) {
        let store = try temporaryStore()
        var keys: [ContentDigest] = []
        for index in 0..<count {
            let digest = try await store.storeResult(BytesResult(Data(repeating: UInt8(index), count: size)))
            // Keys of one length: every record has the same size.
            let text = String(format: "entry %03d", index)
            let key = sampleKey(text)
            try await store.write(sampleRecord(result: digest, key: text), for: key)
            backdate(store.recordPath(key), by: Double(count - index) * 3600)
            keys.append(key)
        }
        backdateAll(under: store.root + "/v1/blobs", by: 2 * ContentStore.gracePeriod)
        return (store, keys)
    }

    private func present(_ store: ContentStore, _ keys: [ContentDigest]) async -> [Bool] {
        var present: [Bool] = []
        for key in keys { present.append(FileManager.default.fileExists(atPath: store.recordPath(key))) }
        return present
    }

    @Test func evictsTheLeastRecentlyUsedUntilUnderTheSize() async throws {
        let (store, keys) = try await filledStore(6)
        // The oldest entry is read now: it becomes the most recently used.
        #expect(await store.record(for: keys[0]) != nil)
        let before = try await store.status().size
        let entry = before / 6
        let report = try await store.collectGarbage(maxSize: before - 2 * entry, maxAge: nil)
        #expect(report.recordsRemoved == 2)
        #expect(report.blobsRemoved == 2)
        #expect(report.sizeAfter <= before - 2 * entry)
        #expect(await present(store, keys) == [true, false, false, true, true, true])
        #expect(await store.record(for: keys[3]) != nil)
        #expect(try await store.status().size == report.sizeAfter)
    }

    @Test func evictsExactlyTheOldestAcrossEveryFanOutDirectory() async throws {
        let (store, keys) = try await filledStore(120, size: 100)
        let before = try await store.status().size
        let report = try await store.collectGarbage(maxSize: before / 2, maxAge: nil)
        #expect(report.recordsRemoved == 60 && report.blobsRemoved == 60)
        #expect((report.recordsLeft, report.blobsLeft) == (60, 60))
        #expect(await present(store, keys) == Array(repeating: false, count: 60) + Array(repeating: true, count: 60))
        #expect(try await store.status().size == report.sizeAfter)
        #expect(try await store.collectGarbage(maxSize: nil, maxAge: nil).recordsRemoved == 0)
    }

    @Test func removesEntriesUnusedForLongerThanTheAge() async throws {
        let (store, keys) = try await filledStore(4)
        let report = try await store.collectGarbage(maxSize: nil, maxAge: .seconds(2.5 * 3600))
        #expect(report.recordsRemoved == 2)
        #expect(await present(store, keys) == [false, false, true, true])
    }

    @Test func keepsEverythingYoungerThanTheGracePeriod() async throws {
        let store = try temporaryStore()
        let digest = try await store.storeResult(BytesResult(Data("young".utf8)))
        try await store.write(sampleRecord(result: digest, key: "young"), for: sampleKey("young"))
        let report = try await store.collectGarbage(maxSize: 0, maxAge: .seconds(0))
        #expect(report.recordsRemoved == 0 && report.blobsRemoved == 0)
        #expect(await store.record(for: sampleKey("young")) != nil)
    }

    @Test func removesUnnamedBlobsButKeepsSharedOnes() async throws {
        let (store, keys) = try await filledStore(2)
        let shared = try await store.storeResult(BytesResult(Data(repeating: 1, count: 1000)))
        try await store.write(sampleRecord(result: shared, key: "sharer"), for: sampleKey("sharer"))
        let orphan = try await store.storeResult(BytesResult(Data("orphan".utf8)))
        backdate(store.blobPath(orphan), by: 2 * ContentStore.gracePeriod)
        backdate(store.recordPath(keys[1]), by: 100 * 3600)
        let report = try await store.collectGarbage(maxSize: nil, maxAge: .seconds(50 * 3600))
        #expect(report.recordsRemoved == 1)
        #expect(report.blobsRemoved == 1, "the orphan; entry 1's result is still named by 'sharer'")
        #expect(!FileManager.default.fileExists(atPath: store.blobPath(orphan)))
        #expect(await store.record(for: sampleKey("sharer")) != nil)
    }

    @Test func leftoversOfKilledWritersAreNeverEntriesAndGoWhenStale() async throws {
        let (store, keys) = try await filledStore(1)
        let leftover = store.root + "/v1/tmp/write-12345-AbCdEf"
        try FileManager.default.createDirectory(atPath: store.root + "/v1/tmp", withIntermediateDirectories: true)
        try writeFile("half a blob", to: leftover)
        let fresh = store.root + "/v1/tmp/write-12345-GhIjKl"
        try writeFile("being written", to: fresh)
        // Records, and blobs written from memory, are written beside where they go.
        try FileManager.default.createDirectory(
            atPath: store.root + "/v1/records/ab", withIntermediateDirectories: true)
        let besideRecords = store.root + "/v1/records/ab/write-12345-MnOpQr"
        try writeFile("half a record", to: besideRecords)
        let freshBesideBlobs = store.root + "/v1/blobs/ab/write-12345-StUvWx"
        try FileManager.default.createDirectory(atPath: store.root + "/v1/blobs/ab", withIntermediateDirectories: true)
        try writeFile("being written", to: freshBesideBlobs)
        for path in [leftover, besideRecords] { backdate(path, by: 2 * ContentStore.gracePeriod) }
        let status = try await store.status()
        #expect(status.records == 1 && status.blobs == 1)
        let report = try await store.collectGarbage(maxSize: nil, maxAge: nil)
        #expect(report.temporariesRemoved == 2)
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(!FileManager.default.fileExists(atPath: besideRecords))
        #expect(FileManager.default.fileExists(atPath: fresh))
        #expect(FileManager.default.fileExists(atPath: freshBesideBlobs))
        #expect(await store.record(for: keys[0]) != nil)
    }

    @Test func evictIfNeededTrustsItsEstimateUnderTheBound() async throws {
        let (store, _) = try await filledStore(4)
        let first = try await store.evictIfNeeded(maxSize: 1 << 30)
        #expect(first.scanned, "no measurement yet")
        let second = try await store.evictIfNeeded(maxSize: 1 << 30)
        #expect(!second.scanned)
        #expect(second.sizeBefore == first.sizeAfter)
        // 26 bytes of envelope (docs/results.md) and 5000 of payload.
        _ = try await store.storeResult(BytesResult(Data(repeating: 9, count: 5000)))
        let third = try await store.evictIfNeeded(maxSize: 1 << 30)
        #expect(!third.scanned)
        #expect(third.sizeBefore == first.sizeAfter + 5000 + 26)
    }

    @Test func evictIfNeededTakesANewStoresSizeFromWhatItAddedWithoutListingIt() async throws {
        let (store, _) = try await filledStore(4)
        let estimate = try await store.evictIfNeeded(maxSize: 1 << 30, isNew: true)
        #expect(!estimate.scanned)
        let listed = try await store.collectGarbage(maxSize: nil, maxAge: nil)
        #expect(listed.sizeBefore == estimate.sizeBefore)
        #expect(try await store.evictIfNeeded(maxSize: 1 << 30).sizeBefore == estimate.sizeBefore)
    }

    @Test func evictIfNeededListsANewStoreAboveTheBound() async throws {
        let (store, _) = try await filledStore(4)
        #expect(try await store.evictIfNeeded(maxSize: 1000, isNew: true).scanned)
    }

    @Test func evictIfNeededCreatesNoStore() async throws {
        let store = try temporaryStore()
        let report = try await store.evictIfNeeded(maxSize: 1 << 30)
        #expect(report == GarbageCollectionReport(scanned: true, sizeBefore: 0, sizeAfter: 0))
        #expect(!FileManager.default.fileExists(atPath: store.root))
    }

    @Test func evictIfNeededEvictsToNinetyPercentOnceOver() async throws {
        let (store, keys) = try await filledStore(10)
        let size = try await store.status().size
        let report = try await store.evictIfNeeded(maxSize: size - 1)
        #expect(report.scanned)
        #expect(report.sizeAfter <= Int64(Double(size - 1) * 0.9))
        #expect(report.recordsRemoved == 2)
        #expect(await present(store, keys).prefix(3) == [false, false, true])
    }

    @Test func verifyRemovesCorruptBlobsAndTheRecordsNamingThem() async throws {
        let (store, keys) = try await filledStore(3)
        let record = try #require(await store.record(for: keys[1]))
        try writeFile("tampered", to: store.blobPath(record.result))
        let report = try await store.verify()
        #expect(
            report == VerificationReport(blobsChecked: 3, corruptBlobsRemoved: 1, recordsChecked: 3, recordsRemoved: 1))
        #expect(await present(store, keys) == [true, false, true])
    }

    @Test func clearRemovesEverything() async throws {
        let (store, keys) = try await filledStore(3)
        let cleared = try await store.clear()
        #expect(cleared.records == 3 && cleared.blobs == 3)
        #expect(await present(store, keys) == [false, false, false])
        #expect(try await store.status().size == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.root) == [])
    }
    @Test func snapshotsPastTheirHourAndPlansUnwrittenForAWeekGoAndCountInTheSize() async throws {
        let (store, _) = try await filledStore(2)
        let base = store.root + "/v1"
        for directory in ["snapshots", "plans"] {
            try FileManager.default.createDirectory(atPath: base + "/" + directory, withIntermediateDirectories: true)
            for name in ["old", "new"] {
                try writeFile(String(repeating: "x", count: 500), to: base + "/\(directory)/\(name)")
            }
        }
        backdate(base + "/snapshots/old", by: 3_700)
        backdate(base + "/plans/old", by: 8 * 86_400)
        backdate(base + "/plans/new", by: 6 * 86_400)
        let before = try await store.status().size
        let report = try await store.collectGarbage(maxSize: nil, maxAge: nil)
        #expect(report.outdatedRemoved == 2 && report.recordsRemoved == 0)
        #expect(report.sizeBefore == before && report.sizeAfter == before - 1_000)
        let left = ["snapshots/old", "snapshots/new", "plans/old", "plans/new"].map {
            FileManager.default.fileExists(atPath: base + "/" + $0)
        }
        #expect(left == [false, true, false, true])
    }
}
