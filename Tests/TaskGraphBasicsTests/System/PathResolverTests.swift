import Testing

@testable import TaskGraphBasics

/// `PathResolver`: joining onto a directory, dropping empty and `.` components, whether or not
/// the joined path needed it.
@Suite struct PathResolverTests {
    @Test func cleanPathsAreJoinedAsTheyAre() {
        #expect(PathResolver.resolve("out/n1.txt", in: "/work/dag") == "/work/dag/out/n1.txt")
        #expect(PathResolver.resolve("/usr/bin/sh", in: "/work") == "/usr/bin/sh")
        #expect(PathResolver.resolve("a/../b", in: "/d") == "/d/a/../b")
        #expect(PathResolver.resolve(".hidden/.x", in: "d") == "d/.hidden/.x")
        #expect(PathResolver.resolve("a", in: "") == "a")
        #expect(PathResolver.resolve("/", in: "/d") == "/")
        #expect(PathResolver.resolve("", in: "") == "")
    }

    @Test func emptyAndDotComponentsAreDropped() {
        #expect(PathResolver.resolve("./out//n1.txt", in: "/work/") == "/work/out/n1.txt")
        #expect(PathResolver.resolve("a/.", in: "/d") == "/d/a")
        #expect(PathResolver.resolve("a/", in: "/d") == "/d/a")
        #expect(PathResolver.resolve("//a", in: "/d") == "/a")
        #expect(PathResolver.resolve(".", in: "") == "")
        #expect(PathResolver.resolve("./a", in: "") == "a")
    }
}
