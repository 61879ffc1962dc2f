import Foundation
import Testing

@testable import TaskGraphStore

/// How the store reads its own files: a large file mapped gives the bytes a read gives, and
/// keeps them when the file is replaced; `DirectoryStatter` says what `stat` says of each path.
@Suite struct StoreReadingTests {
    @Test func aMappedFileReadsAsItsBytesAndKeepsThemWhenTheFileIsReplaced() throws {
        let directory = try emptyDirectory()
        let layout = StoreLayout(root: directory)
        let path = directory + "/snapshot"
        let bytes = Data((0..<(StoreIO.mappingThreshold + 4_099)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let mapped = try #require(try StoreIO.mapped(path, layout))
        #expect(mapped == bytes)
        #expect(try StoreIO.read(path, layout) == bytes)

        // The store replaces its files by renaming a new one over them: the old bytes stay.
        try Data("new".utf8).write(to: URL(fileURLWithPath: directory + "/next"))
        #expect(rename(directory + "/next", path) == 0)
        #expect(mapped == bytes)
        #expect(try StoreIO.mapped(path, layout) == Data("new".utf8))
    }

    @Test func aSmallFileAnEmptyOneAndAMissingOneReadAsByRead() throws {
        let directory = try emptyDirectory()
        let layout = StoreLayout(root: directory)
        try writeFile("small", to: directory + "/small")
        try writeFile("", to: directory + "/empty")
        #expect(try StoreIO.mapped(directory + "/small", layout) == Data("small".utf8))
        #expect(try StoreIO.mapped(directory + "/empty", layout) == Data())
        #expect(try StoreIO.mapped(directory + "/missing", layout) == nil)
    }

    @Test func aDirectoryWhereAFileShouldBeIsAReadFailure() throws {
        let directory = try emptyDirectory()
        #expect(throws: StoreError.self) { try StoreIO.mapped(directory, StoreLayout(root: directory)) }
    }

    @Test func theStatterSaysWhatStatSaysOfEveryPath() throws {
        let directory = try emptyDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/out", withIntermediateDirectories: false)
        for name in ["a.txt", "b.txt", "c.txt"] { try writeFile(name, to: directory + "/out/" + name) }
        try writeFile("top", to: directory + "/top.txt")
        #expect(symlink(directory + "/out/a.txt", directory + "/out/link") == 0)
        let paths = [
            directory + "/gone/x.txt", directory + "/out/a.txt", directory + "/out/b.txt", directory + "/out/link",
            directory + "/out/missing.txt", directory + "/out/c.txt", directory + "/top.txt", directory + "/out/a.txt",
            directory + "/top.txt/inside", directory + "/out/", directory + "/out/../top.txt", "/", "/proc",
            "relative-and-missing",
        ]
        var statter = DirectoryStatter()
        for path in paths {
            #expect(statter.stat(path) == FileStat.of(path), "\(path)")
        }
        #expect(statter.stat(directory + "/out/link") == FileStat.of(directory + "/out/a.txt"))
        #expect(statter.stat(directory + "/out/missing.txt") == nil)
    }
}
