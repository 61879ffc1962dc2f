import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphBasics

/// Writes beneath an output directory never pass through a symbolic link inside it, and a
/// legal file name of up to 255 bytes gets a temporary name that is legal too.
struct ContainedDirectoryTests {
    private func emptyDirectory() throws -> String {
        try makeScratchDirectory().path
    }

    @Test func aLinkInsideTheRootIsNotFollowedOutOfIt() async throws {
        let root = try emptyDirectory()
        let elsewhere = try emptyDirectory()
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: elsewhere)
        await #expect(
            throws: FileError.writeFailed(
                path: root + "/link/x.txt",
                reason: "'\(root)/link' is a symbolic link; paths in the output directory may not pass through one")
        ) {
            try await BlockingIO.run {
                try FileIO.writeAtomically(Data("x".utf8), to: root + "/link/x.txt", beneath: root)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == [])
    }

    @Test func missingDirectoriesAreCreatedAndAFinalLinkIsReplacedNotFollowed() async throws {
        let root = try emptyDirectory()
        let elsewhere = try emptyDirectory()
        try FileManager.default.createSymbolicLink(
            atPath: root + "/out.txt", withDestinationPath: elsewhere + "/victim.txt")
        try await BlockingIO.run {
            try FileIO.writeAtomically(Data("a".utf8), to: root + "/a/b/c.txt", beneath: root)
            try FileIO.writeAtomically(Data("b".utf8), to: root + "/out.txt", beneath: root)
        }
        #expect(try String(contentsOfFile: root + "/a/b/c.txt", encoding: .utf8) == "a")
        #expect(FileKind(at: root + "/out.txt", followingLinks: false) == .regular)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == [])
    }

    @Test func aFileNameOf255BytesIsWritten() async throws {
        let root = try emptyDirectory()
        let name = String(repeating: "n", count: 255)
        try await BlockingIO.run { try FileIO.writeAtomically(Data("x".utf8), to: root + "/" + name, beneath: root) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == [name])
    }
}
