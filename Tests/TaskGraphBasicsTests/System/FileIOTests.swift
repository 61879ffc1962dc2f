import Foundation
import Synchronization
import Testing

@testable import TaskGraphBasics

/// Tests for `FileIO.writeAtomically` and the `TemporaryFiles` it registers its files in. File
/// IO runs through `BlockingIO`, off the cooperative pool.
struct FileIOTests {
    /// A fresh empty directory.
    private func emptyDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fileio-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func contents(of directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test func writesTheWholeFileAndNothingElse() async throws {
        let directory = try emptyDirectory()
        let data = Data((0..<(3 * FileIO.writeChunkSize + 5)).map { UInt8($0 % 251) })
        let registry = TemporaryFiles()
        try await BlockingIO.run {
            try FileIO.writeAtomically(data, to: directory + "/sub/file.bin", temporaryFiles: registry)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/sub/file.bin")) == data)
        #expect(contents(of: directory + "/sub") == ["file.bin"])
        #expect(registry.paths.isEmpty)
    }

    @Test func aCancelledWriteStopsAtTheNextChunkAndLeavesNothing() async throws {
        let directory = try emptyDirectory()
        let data = Data(count: 8 * FileIO.writeChunkSize)
        let registry = TemporaryFiles()
        let checks = try await BlockingIO.run { () -> Int in
            var checks = 0
            do {
                // Cancelled once the first chunk is written.
                try FileIO.writeAtomically(
                    data, to: directory + "/big.bin",
                    isCancelled: {
                        checks += 1
                        return checks > 1
                    }, temporaryFiles: registry)
                Issue.record("the write was not cancelled")
            } catch is CancellationError {
            }
            return checks
        }
        #expect(checks == 2, "cancellation was checked \(checks) times before the write stopped")
        #expect(contents(of: directory) == [])
        #expect(registry.paths.isEmpty)
    }

    @Test func abandoningRemovesTemporaryFilesAndRefusesNewOnes() async throws {
        let directory = try emptyDirectory()
        let registry = TemporaryFiles()
        let (descriptor, temporary) = try await BlockingIO.run { try registry.create(beside: directory + "/out.jpg") }
        defer { close(descriptor) }
        #expect(temporary.hasPrefix(directory + "/.out.jpg.tmp-"))
        #expect(contents(of: directory).count == 1)

        try await BlockingIO.run { registry.abandonAll() }
        #expect(contents(of: directory) == [])
        #expect(throws: CancellationError.self) { try registry.commit(temporary, to: directory + "/out.jpg") }
        await #expect(throws: CancellationError.self) {
            try await BlockingIO.run {
                try FileIO.writeAtomically(Data("late".utf8), to: directory + "/late.txt", temporaryFiles: registry)
            }
        }
        #expect(contents(of: directory) == [])
    }

    @Test func aDirectoryThatCannotBeCreatedIsReportedWithTheReason() async throws {
        let directory = try emptyDirectory()
        #expect(FileManager.default.createFile(atPath: directory + "/file", contents: Data()))
        await #expect(
            throws: FileError.writeFailed(
                path: directory + "/file/sub/x.txt",
                reason: "cannot create directory '\(directory)/file/sub': Not a directory")
        ) {
            try await BlockingIO.run { try FileIO.writeAtomically(Data("x".utf8), to: directory + "/file/sub/x.txt") }
        }
    }
}
