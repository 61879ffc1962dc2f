import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// `materialize`: an output file already holding the content is left alone; a missing or
/// changed one is written again, atomically, from a checked blob.
@Suite struct MaterializeTests {
    /// A store holding the file `name` with `text` as a blob, and the file's path.
    private func storedFile(_ text: String) async throws -> (ContentStore, String, ContentDigest) {
        let store = try temporaryStore()
        let path = try emptyDirectory("out") + "/out.txt"
        try writeFile(text, to: path)
        return (store, path, try await store.storeFile(at: path))
    }

    @Test func anIdenticalFileIsLeftAlone() async throws {
        let (store, path, digest) = try await storedFile("contents")
        let before = inode(of: path)
        #expect(try await store.materialize(digest, at: path) == false)
        #expect(inode(of: path) == before)
        #expect(try readFile(path) == "contents")
    }

    @Test func anUnchangedFileKnownToTheStatCacheIsNotRead() async throws {
        let (store, path, digest) = try await storedFile("contents")
        backdate(path, by: 60)
        #expect(try await store.materialize(digest, at: path) == false)
        let hashed = store.filesHashed
        #expect(try await store.materialize(digest, at: path) == false)
        #expect(store.filesHashed == hashed)
    }

    @Test func aMissingFileIsRestored() async throws {
        let (store, path, digest) = try await storedFile("contents")
        try FileManager.default.removeItem(atPath: path)
        #expect(try await store.materialize(digest, at: path))
        #expect(try readFile(path) == "contents")
        let directory = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.txt"])
    }

    @Test func aChangedFileIsReplacedByANewOne() async throws {
        let (store, path, digest) = try await storedFile("contents")
        try writeFile("CONTENTS", to: path)
        let before = inode(of: path)
        #expect(try await store.materialize(digest, at: path))
        #expect(try readFile(path) == "contents")
        #expect(inode(of: path) != before, "renamed over, not rewritten in place")
    }

    @Test func aMissingDirectoryIsCreated() async throws {
        let (store, path, digest) = try await storedFile("contents")
        let elsewhere = try emptyDirectory("out") + "/a/b/out.txt"
        #expect(try await store.materialize(digest, at: elsewhere))
        #expect(try readFile(elsewhere) == "contents")
        _ = path
    }

    @Test func aCorruptBlobIsNeverWrittenOut() async throws {
        let (store, path, digest) = try await storedFile("contents")
        try writeFile("CONTENTS", to: store.blobPath(digest))
        try FileManager.default.removeItem(atPath: path)
        let error = await #expect(throws: StoreError.self) { try await store.materialize(digest, at: path) }
        #expect(error?.description == "corrupt cache entry \(digest)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: store.blobPath(digest)))
    }

    @Test func downloadedContentsAreStoredAsTheBlobAndReplaceAChangedFileOfTheSameSize() async throws {
        let store = try temporaryStore()
        let path = try emptyDirectory("out") + "/out.txt"
        try writeFile("CONTENTS", to: path)
        let contents = Data("contents".utf8)
        let digest = ContentDigest.sha256(of: contents)
        await #expect(throws: StoreError.missingEntry(digest)) { try await store.materialize(digest, at: path) }
        #expect(try await store.materializing(digest, at: path) == .blobMissing(fileExists: true))
        #expect(try await store.restore(contents, as: digest, at: path, fileExists: true, blobAbsent: true))
        #expect(try readFile(path) == "contents")
        #expect(try readFile(store.blobPath(digest)) == "contents")
        // Now holding its blob: left alone.
        let file = inode(of: path)
        #expect(try await store.materialize(digest, at: path) == false)
        #expect(inode(of: path) == file)
        // Restored again, the blob not known to be absent: neither it nor the file is written again.
        let blob = inode(of: store.blobPath(digest))
        #expect(try await store.restore(contents, as: digest, at: path, fileExists: true, blobAbsent: false) == false)
        #expect(inode(of: store.blobPath(digest)) == blob)
        #expect(inode(of: path) == file)
    }
}
