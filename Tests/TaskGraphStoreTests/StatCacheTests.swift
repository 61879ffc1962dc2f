import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// The stat cache: an unchanged file is not read again, in this process or the next; a changed
/// one always is, even with the same size and modification time; a file changed just before
/// hashing is not trusted (racy clean).
@Suite struct StatCacheTests {
    /// A file with `text`, last modified a minute ago (not racy).
    private func settledFile(_ text: String) throws -> String {
        let path = try emptyDirectory("input") + "/input.txt"
        try writeFile(text, to: path)
        backdate(path, by: 60)
        return path
    }

    @Test func anUnchangedFileIsHashedOnce() async throws {
        let store = try temporaryStore()
        let path = try settledFile("abc")
        let first = try await store.digest(ofFile: path)
        #expect(first == ContentDigest.sha256(of: Data("abc".utf8)))
        for _ in 0..<3 { #expect(try await store.digest(ofFile: path) == first) }
        #expect(store.filesHashed == 1)
    }

    @Test func theNextProcessHashesNothingAfterAFlush() async throws {
        let store = try temporaryStore()
        let paths = try (0..<5).map { try settledFile("file \($0)") }
        for path in paths { _ = try await store.digest(ofFile: path) }
        try await store.flush()
        let next = ContentStore(root: store.root, registry: .core)
        for path in paths { _ = try await next.digest(ofFile: path) }
        #expect(next.filesHashed == 0)
    }

    @Test func aChangeOfTheSameSizeIsSeenEvenWithTheOldModificationTime() async throws {
        let store = try temporaryStore()
        let path = try settledFile("abc")
        var info = stat()
        stat(path, &info)
        _ = try await store.digest(ofFile: path)
        try writeFile("xyz", to: path)
        let times = [info.st_atim, info.st_mtim]
        utimensat(AT_FDCWD, path, times, 0)
        #expect(try await store.digest(ofFile: path) == ContentDigest.sha256(of: Data("xyz".utf8)))
        #expect(store.filesHashed == 2)
    }

    @Test func aFileChangedJustBeforeHashingIsHashedAgain() async throws {
        let store = try temporaryStore()
        let path = try emptyDirectory("input") + "/fresh.txt"
        try writeFile("abc", to: path)
        _ = try await store.digest(ofFile: path)
        _ = try await store.digest(ofFile: path)
        #expect(store.filesHashed == 2)
    }

    @Test func anUnreadableFileIsNamed() async throws {
        let store = try temporaryStore()
        let error = await #expect(throws: OperationError.self) {
            try await store.digest(ofFile: "/nonexistent/input.txt")
        }
        #expect(error?.description == "cannot read '/nonexistent/input.txt': No such file or directory")
    }

    @Test func concurrentSavesKeepBothProcessesEntries() async throws {
        let store = try temporaryStore()
        let other = ContentStore(root: store.root, registry: .core)
        let first = try settledFile("first")
        let second = try settledFile("second")
        _ = try await store.digest(ofFile: first)
        _ = try await other.digest(ofFile: second)
        try await store.flush()
        try await other.flush()
        let next = ContentStore(root: store.root, registry: .core)
        _ = try await next.digest(ofFile: first)
        _ = try await next.digest(ofFile: second)
        #expect(next.filesHashed == 0)
    }

    @Test func aSaveKeepsWhatAnotherProcessSavedSinceItLoaded() async throws {
        let store = try temporaryStore()
        let first = try settledFile("first")
        _ = try await store.digest(ofFile: first)
        try await store.flush()
        let (one, other) = (
            ContentStore(root: store.root, registry: .core), ContentStore(root: store.root, registry: .core)
        )
        let second = try settledFile("second")
        let third = try settledFile("third")
        _ = try await one.digest(ofFile: second)
        _ = try await other.digest(ofFile: third)
        try await other.flush()
        try await one.flush()
        let next = ContentStore(root: store.root, registry: .core)
        for path in [first, second, third] { _ = try await next.digest(ofFile: path) }
        #expect(next.filesHashed == 0)
    }

    @Test func aDamagedStatCacheIsIgnored() async throws {
        let store = try temporaryStore()
        let path = try settledFile("abc")
        _ = try await store.digest(ofFile: path)
        try await store.flush()
        try writeFile("garbage", to: store.root + "/v1/stat-cache")
        let next = ContentStore(root: store.root, registry: .core)
        #expect(try await next.digest(ofFile: path) == ContentDigest.sha256(of: Data("abc".utf8)))
        #expect(next.filesHashed == 1)
    }

    @Test func storingAnUnchangedFileReadsNothing() async throws {
        let store = try temporaryStore()
        let path = try settledFile("output")
        let digest = try await store.storeFile(at: path)
        #expect(try await store.storeFile(at: path) == digest)
        #expect(try await store.digest(ofFile: path) == digest)
        #expect(store.filesHashed == 1)
    }

    /// 1,500 files in three directories: more than one piece of `stat`s, on several threads.
    @Test func manyFilesAtOnceGetTheDigestsOfTheirContentsAndAChangeIsSeen() async throws {
        let store = try temporaryStore()
        let root = try emptyDirectory("inputs")
        let paths = (0..<1_500).map { root + "/d\($0 % 3)/f\($0).txt" }
        for directory in 0..<3 {
            try FileManager.default.createDirectory(atPath: root + "/d\(directory)", withIntermediateDirectories: true)
        }
        for (index, path) in paths.enumerated() { try writeFile("file \(index)", to: path) }
        backdateAll(under: root, by: 60)
        let sorted = paths.sorted()
        let expected = try sorted.map { ContentDigest.sha256(of: Data(try readFile($0).utf8)) }
        #expect(try await BlockingIO.run { try store.blockingDigests(ofFiles: sorted) } == expected)
        #expect(store.filesHashed == 1_500)
        #expect(try await BlockingIO.run { try store.blockingDigests(ofFiles: sorted) } == expected)
        #expect(store.filesHashed == 1_500, "unchanged files are not read again")
        let changed = sorted[1_234]
        var info = stat()
        stat(changed, &info)
        try writeFile(try readFile(changed).replacingOccurrences(of: "file", with: "FILE"), to: changed)
        utimensat(AT_FDCWD, changed, [info.st_atim, info.st_mtim], 0)
        let digests = try await BlockingIO.run { try store.blockingDigests(ofFiles: sorted) }
        #expect(digests[1_234] == ContentDigest.sha256(of: Data(try readFile(changed).utf8)))
        #expect(digests[1_234] != expected[1_234])
        #expect(store.filesHashed == 1_501)
        let error = await #expect(throws: OperationError.self) {
            try await BlockingIO.run { try store.blockingDigests(ofFiles: sorted + [root + "/d1/missing.txt"]) }
        }
        #expect(error?.description == "cannot read '\(root)/d1/missing.txt': No such file or directory")
    }
}
