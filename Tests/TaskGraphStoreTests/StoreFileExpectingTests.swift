import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// `storeFile(at:expecting:)`: an `exec`'s output whose digest its result already holds is not
/// read again when its blob is present, and is refused when it no longer hashes to it.
@Suite struct StoreFileExpectingTests {
    @Test func aFileWhoseBlobIsPresentIsNotReadAgain() async throws {
        let store = try temporaryStore()
        let directory = try emptyDirectory("out")
        try writeFile("same", to: directory + "/a.txt")
        try writeFile("same", to: directory + "/b.txt")
        let digest = try await store.storeFile(at: directory + "/a.txt")
        let hashed = store.filesHashed
        #expect(try await store.storeFile(at: directory + "/b.txt", expecting: digest) == digest)
        #expect(store.filesHashed == hashed)
    }

    @Test func aFileThatNoLongerHashesToTheExpectedDigestIsRefused() async throws {
        let store = try temporaryStore()
        let path = try emptyDirectory("out") + "/a.txt"
        try writeFile("rewritten", to: path)
        await #expect(throws: StoreError.changedWhileStored(path: path)) {
            try await store.storeFile(at: path, expecting: ContentDigest.sha256(of: Data("written".utf8)))
        }
        #expect(
            StoreError.changedWhileStored(path: path).description
                == "\(path) changed after its operation wrote it, before it was stored")
        let written = ContentDigest.sha256(of: Data("rewritten".utf8))
        #expect(try await store.storeFile(at: path, expecting: written) == written)
    }
}
