import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// An operation that reads a file another one writes needs it without a `needs:` entry; a
/// cycle through files is reported like a `needs` cycle, every edge located, the file named.
@Suite struct FileEdgesTests {
    @Test func readersNeedTheWritersOfTheirFiles() throws {
        let graph = try plannedGraph(
            """
            version: 1
            vars: {units: [main, util]}
            operations:
              compile:
                foreach: ${units}
                op: exec
                command: [cc, -c, "src/${item}.c", -o, "obj/${item}.o"]
                outputs: ["obj/${item}.o"]
              link: {op: exec, command: [cc, -o, bin/app], inputs: ["obj/*.o"], outputs: [bin/app]}
              show: {op: load, path: bin/app}
              report: {op: exec, needs: [link], command: [ls], inputs: [bin/app]}
              notes: {op: save, needs: [show], path: notes.txt}
              again: {op: exec, command: [cat], inputs: [../out/notes.txt]}
            """, file: "/tmp/p/test.yaml")
        func needs(_ id: String) throws -> [String] {
            let node = try #require(graph.nodes.first { $0.id == id })
            #expect(node.setup?.dependencies == node.dependencies.map { graph.nodes[$0].id })
            return node.dependencies.map { graph.nodes[$0].id }
        }
        #expect(try needs("link") == ["compile[main]", "compile[util]"])
        #expect(try needs("show") == ["link"])
        #expect(try needs("report") == ["link"])
        #expect(try needs("again") == ["notes"])
        let link = try #require(graph.nodes.firstIndex { $0.id == "link" })
        #expect(graph.nodes[link].fileDependencies == [0: "/tmp/p/obj/main.o", 1: "/tmp/p/obj/util.o"])
    }

    @Test func aCycleThroughFilesNamesEveryEdge() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a:
                    op: exec
                    command: [make-a]
                    inputs: [b.txt]
                    outputs: [a.txt]
                  b: {op: exec, needs: [a], command: [make-b], outputs: [b.txt]}
                """) == [
                    """
                    test.yaml:6:14: error: dependency cycle: a -> b -> a
                    test.yaml:6:14: note: 'a' reads 'b.txt', which 'b' writes
                    test.yaml:8:25: note: 'b' needs 'a' here
                    """
                ])
    }

    @Test func patternsMatchWrittenPathsByTheirText() {
        #expect(PathGlob.matches("/p/obj/*.o", path: "/p/obj/a.o"))
        #expect(!PathGlob.matches("/p/obj/*.o", path: "/p/obj/sub/a.o"))
        #expect(PathGlob.matches("/p/**/*.o", path: "/p/a.o"))
        #expect(PathGlob.matches("/p/**/*.o", path: "/p/x/y/a.o"))
        #expect(!PathGlob.matches("/p/**/*.o", path: "/p/.hidden/a.o"))
        #expect(!PathGlob.matches("/p/*.o", path: "/p/.a.o"))
        #expect(PathGlob.matches("/p/[ab].o", path: "/p/b.o"))
    }
}
