import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Blobs and records: round trips, what a damaged or incomplete store reads as, concurrent
/// writers, permissions, an unwritable store.
@Suite struct ContentStoreTests {
    @Test func aResultRoundTripsAndItsBlobIsItsEncoding() async throws {
        let store = try temporaryStore()
        let result = BytesResult(Data("hello".utf8))
        let digest = try await store.storeResult(result)
        #expect(digest == (try await result.digest))
        #expect(digest.description == "sha256:11cc88ffad4e4f6be3114fe89623ea8c64e823056fbfd1ce6bf89e615a9c4eba")
        #expect(store.blobPath(digest) == store.root + "/v1/blobs/11/" + digest.hex)
        let blob = try Data(contentsOf: URL(fileURLWithPath: store.blobPath(digest)))
        #expect(blob == (try await SerializedResult(of: result).encoded))
        let loaded = try await store.loadResult(digest)
        #expect((loaded as? BytesResult) == result)
    }

    @Test func aFileRoundTripsAsItsBytes() async throws {
        let store = try temporaryStore()
        let source = try emptyDirectory() + "/photo.txt"
        try writeFile("pixels", to: source)
        let digest = try await store.storeFile(at: source)
        #expect(digest == ContentDigest.sha256(of: Data("pixels".utf8)))
        #expect(try readFile(store.blobPath(digest)) == "pixels")
    }

    /// Up to `filesReadWhole` a file is read into memory and written beside its blob; a larger
    /// one is copied through `tmp/`. Either way the blob holds its bytes and no temporary is left.
    @Test(arguments: [0, ContentStore.filesReadWhole, ContentStore.filesReadWhole + 1, 3 << 20])
    func aFileOfAnySizeRoundTripsWithoutTemporaries(size: Int64) async throws {
        let store = try temporaryStore()
        let source = try emptyDirectory() + "/data.bin"
        let bytes = Data((0..<Int(size)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: URL(fileURLWithPath: source))
        let digest = try await store.storeFile(at: source)
        #expect(digest == ContentDigest.sha256(of: bytes))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.blobPath(digest))) == bytes)
        #expect(temporaryFilesAnywhere(in: store) == [])
        // `tmp/` is made by the first write through it.
        #expect(FileManager.default.fileExists(atPath: store.root + "/v1/tmp") == (size > ContentStore.filesReadWhole))
    }

    /// A file that grew past `filesReadWhole` after its size was looked up is copied whole.
    @Test func aFileLargerThanItsStatSaidIsStoredWhole() throws {
        let source = try emptyDirectory() + "/growing.bin"
        let bytes = Data(repeating: 7, count: Int(ContentStore.filesReadWhole) + 10)
        try bytes.write(to: URL(fileURLWithPath: source))
        #expect(try FileHasher.readWhole(source, limit: ContentStore.filesReadWhole, expectedSize: 10) == nil)
        let read = try #require(try FileHasher.readWhole(source, limit: Int64(bytes.count), expectedSize: 10))
        #expect(read.contents == bytes)
        #expect(read.hashed.digest == ContentDigest.sha256(of: bytes))
    }

    @Test func aRecordRoundTripsWhenItsBlobsArePresent() async throws {
        let store = try temporaryStore()
        let result = try await store.storeResult(BytesResult(Data("hello".utf8)))
        let source = try emptyDirectory() + "/out.txt"
        try writeFile("written", to: source)
        let file = ActionRecord.OutputFile(path: source, digest: try await store.storeFile(at: source))
        let record = sampleRecord(result: result, file: file)
        let key = sampleKey("a")
        try await store.write(record, for: key)
        #expect(await store.record(for: key) == record)
        #expect(await store.record(for: sampleKey("b")) == nil)
    }

    @Test func recordsAreReadInBatches() async throws {
        let store = try temporaryStore()
        let result = try await store.storeResult(BytesResult(Data("hello".utf8)))
        try await store.write(sampleRecord(result: result, id: "a"), for: sampleKey("a"))
        try await store.write(sampleRecord(result: result, id: "c", key: "c"), for: sampleKey("c"))
        let records = await store.records(for: [sampleKey("a"), sampleKey("b"), sampleKey("c")])
        #expect(records.map { $0?.id } == ["a", nil, "c"])
    }

    @Test func aRecordNamingAMissingBlobIsIgnored() async throws {
        let store = try temporaryStore()
        let result = try await store.storeResult(BytesResult(Data("hello".utf8)))
        let missing = ContentDigest.sha256(of: Data("never stored".utf8))
        let key = sampleKey("a")
        try await store.write(sampleRecord(result: result, file: .init(path: "/tmp/x", digest: missing)), for: key)
        #expect(await store.record(for: key) == nil)
    }

    @Test func aDamagedRecordReadsAsNone() async throws {
        let store = try temporaryStore()
        let result = try await store.storeResult(BytesResult(Data("hello".utf8)))
        let key = sampleKey("a")
        try await store.write(sampleRecord(result: result), for: key)
        let path = store.recordPath(key)
        let encoded = try Data(contentsOf: URL(fileURLWithPath: path))
        try encoded.prefix(encoded.count - 1).write(to: URL(fileURLWithPath: path))
        #expect(await store.record(for: key) == nil)
    }

    @Test func aCorruptBlobIsRemovedWithTheExactMessage() async throws {
        let store = try temporaryStore()
        let digest = try await store.storeResult(BytesResult(Data("hello".utf8)))
        let path = store.blobPath(digest)
        var blob = try Data(contentsOf: URL(fileURLWithPath: path))
        blob[blob.count - 1] ^= 0x01
        try blob.write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: StoreError.self) { try await store.loadResult(digest) }
        #expect(error?.description == "corrupt cache entry \(digest)")
        #expect(!FileManager.default.fileExists(atPath: path))
        let again = await #expect(throws: StoreError.self) { try await store.loadResult(digest) }
        #expect(again?.description == "cache entry \(digest) is missing")
    }

    @Test func aResultOfAnUnknownKindIsKeptAndExplained() async throws {
        let store = ContentStore(root: try emptyDirectory() + "/cache", registry: ResultRegistry())
        let digest = try await store.storeResult(BytesResult(Data("hello".utf8)))
        let error = await #expect(throws: StoreError.self) { try await store.loadResult(digest) }
        #expect(
            error?.description
                == "cache entry \(digest) cannot be read by this build: unknown result kind 'bytes'; known kinds: none")
        #expect(FileManager.default.fileExists(atPath: store.blobPath(digest)))
    }

    @Test func concurrentWritersOfTheSameBlobAndRecordAllSucceed() async throws {
        let store = try temporaryStore()
        let other = ContentStore(root: store.root, registry: .core)
        let result = BytesResult(Data(repeating: 7, count: 3 << 20))
        let key = sampleKey("shared")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in [store, other, store, other] {
                group.addTask {
                    let digest = try await writer.storeResult(result)
                    try await writer.write(sampleRecord(result: digest, key: "shared"), for: key)
                }
            }
            try await group.waitForAll()
        }
        let record = try #require(await store.record(for: key))
        #expect((try await store.loadResult(record.result) as? BytesResult) == result)
        // No temporary file is left, in `tmp/` or beside the blob and the record.
        #expect(temporaryFilesAnywhere(in: store) == [])
    }

    @Test func filesAreTheOwnersOnly() async throws {
        let store = try temporaryStore()
        let digest = try await store.storeResult(BytesResult(Data("hello".utf8)))
        try await store.write(sampleRecord(result: digest), for: sampleKey("a"))
        try await store.rememberComponents(["a": KeyComponents()], pipeline: "/p.yaml")
        for directory in ["", "/v1", "/v1/blobs", "/v1/blobs/11", "/v1/records", "/v1/tmp", "/v1/pipelines"] {
            #expect(mode(of: store.root + directory) == 0o700, "\(directory)")
        }
        #expect(mode(of: store.blobPath(digest)) == 0o600)
        #expect(mode(of: store.recordPath(sampleKey("a"))) == 0o600)
    }

    @Test func anUnwritableStoreThrowsAStoreErrorNamingItAndTheCause() async throws {
        // Under a regular file, so even root cannot create it.
        let file = try emptyDirectory() + "/plain"
        try writeFile("", to: file)
        let store = ContentStore(root: file + "/cache", registry: .core)
        let error = await #expect(throws: StoreError.self) { try await store.storeResult(BytesResult(Data("x".utf8))) }
        #expect(error?.description == "cannot write to the cache at \(file)/cache: Not a directory")
        #expect(await store.record(for: sampleKey("a")) == nil)
    }

    /// Blobs are written beside where they go (results, small files) or through `tmp/` (large
    /// files): either way a read-only store is a `StoreError`.
    @Test(.enabled(if: geteuid() != 0, "root writes through any mode"))
    func aReadOnlyStoreThrowsPermissionDenied() async throws {
        let store = try temporaryStore()
        let large = try emptyDirectory() + "/large.bin"
        try Data(repeating: 1, count: Int(ContentStore.filesReadWhole) + 1).write(to: URL(fileURLWithPath: large))
        _ = try await store.storeFile(at: large) // makes `tmp/`
        let directories =
            ["/v1/tmp", "/v1/blobs"]
            + ((try? FileManager.default.contentsOfDirectory(
                atPath: store.root + "/v1/blobs")) ?? []).map { "/v1/blobs/" + $0 }
        for directory in directories { chmod(store.root + directory, 0o500) }
        defer { for directory in directories { chmod(store.root + directory, 0o700) } }
        try Data(repeating: 2, count: Int(ContentStore.filesReadWhole) + 1).write(to: URL(fileURLWithPath: large))
        let small = try emptyDirectory() + "/small.txt"
        try writeFile("small", to: small)
        let expected = "cannot write to the cache at \(store.root): Permission denied"
        let result = await #expect(throws: StoreError.self) { try await store.storeResult(BytesResult(Data("y".utf8))) }
        #expect(result?.description == expected)
        let smallFile = await #expect(throws: StoreError.self) { try await store.storeFile(at: small) }
        #expect(smallFile?.description == expected)
        let largeFile = await #expect(throws: StoreError.self) { try await store.storeFile(at: large) }
        #expect(largeFile?.description == expected)
    }

    @Test func storesAreFoundWhereTheEnvironmentSays() {
        #expect(
            ContentStore.defaultRoot(environment: ["TASKGRAPH_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"])
                == "/c")
        #expect(
            ContentStore.defaultRoot(environment: ["TASKGRAPH_CACHE_DIR": "", "XDG_CACHE_HOME": "/x", "HOME": "/h"])
                == "/x/taskgraph")
        #expect(
            ContentStore.defaultRoot(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == "/h/.cache/taskgraph"
        )
        #expect(ContentStore.defaultRoot(environment: ["HOME": "/h"]) == "/h/.cache/taskgraph")
        #expect(ContentStore.defaultRoot(environment: [:]) == ".cache/taskgraph")
    }
}
