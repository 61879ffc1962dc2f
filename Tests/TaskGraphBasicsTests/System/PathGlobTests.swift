import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphBasics

/// `PathGlob`: shell wildcards per path component, `**` for any depth, regular files only.
@Suite struct PathGlobTests {
    private let directory: URL

    init() throws {
        directory = try makeScratchDirectory()
        for path in ["a.c", "b.c", "b.h", ".hidden.c", "src/x.c", "src/y.c", "src/deep/z.c", "src/.git/w.c", "[x].c"] {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
        }
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("src/loop").path, withDestinationPath: "..")
    }

    private func expand(_ pattern: String) -> [String] {
        PathGlob.expand(pattern, in: directory.path)
    }

    @Test func wildcardsMatchWithinOneComponentAndSkipHiddenNames() {
        #expect(expand("*.c") == ["[x].c", "a.c", "b.c"])
        #expect(expand("?.[ch]") == ["a.c", "b.c", "b.h"])
        #expect(expand("[!a].c") == ["b.c"])
        #expect(expand(".*.c") == [".hidden.c"])
        #expect(expand("*/*.c") == ["src/x.c", "src/y.c"])
        #expect(expand("src") == [])
    }

    @Test func doubleStarMatchesAnyDepthWithoutHiddenDirectoriesOrLinkedOnes() {
        #expect(expand("src/**") == ["src/deep/z.c", "src/x.c", "src/y.c"])
        #expect(expand("**/z.c") == ["src/deep/z.c"])
        #expect(expand("src/**/*.c") == ["src/deep/z.c", "src/x.c", "src/y.c"])
        #expect(expand("**/**/x.c") == ["src/x.c"])
        #expect(expand("src/loop/a.c") == ["src/loop/a.c"])
    }

    /// Names are typed by the directory listing; links and special files are looked up.
    @Test func linksToFilesMatchAndDirectoriesFifosAndDanglingLinksDoNot() throws {
        let root = directory.appendingPathComponent("kinds").path
        try FileManager.default.createDirectory(atPath: root + "/dir.c", withIntermediateDirectories: true)
        try Data("a".utf8).write(to: URL(fileURLWithPath: root + "/plain.c"))
        try FileManager.default.createSymbolicLink(atPath: root + "/linked.c", withDestinationPath: "plain.c")
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling.c", withDestinationPath: "none.c")
        try FileManager.default.createSymbolicLink(atPath: root + "/to-src", withDestinationPath: "../src")
        #expect(mkfifo(root + "/pipe.c", 0o600) == 0)
        #expect(expand("kinds/*.c") == ["kinds/linked.c", "kinds/plain.c"])
        #expect(expand("kinds/**") == ["kinds/linked.c", "kinds/plain.c"])
        #expect(expand("kinds/*/*.c") == ["kinds/to-src/x.c", "kinds/to-src/y.c"])
        #expect(expand("kinds/**/*.c") == ["kinds/linked.c", "kinds/plain.c"])
    }

    @Test func absolutePatternsStayAbsoluteAndNothingMatchedIsEmpty() {
        #expect(expand(directory.path + "/*.h") == [directory.path + "/b.h"])
        #expect(expand("none/*.c") == [])
        #expect(expand("*.rs") == [])
        #expect(PathGlob.isPattern("src/*.c"))
        #expect(PathGlob.isPattern("[x].c"))
        #expect(!PathGlob.isPattern("src/x.c"))
    }
}
