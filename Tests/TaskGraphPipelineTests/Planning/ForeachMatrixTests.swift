import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// `foreach: {matrix: …}`: one instance per combination of its axes, pairing on an axis.
@Suite struct ForeachMatrixTests {
    private func load(_ yaml: String) throws -> Pipeline {
        try Pipeline.load(
            text: yaml, file: "test.yaml", options: PipelineOptions(environment: [:], outputDirectory: "/tmp/out"))
    }

    @Test func combinationsInAxisOrderWithoutTheExcludedOnes() throws {
        let pipeline = try load(
            """
            version: 1
            vars: {photos: [mountains, sunset]}
            operations:
              load: {foreach: "${photos}", op: exec, command: [echo, "${item}"]}
              thumb:
                foreach:
                  matrix: {photo: "${photos}", size: [320, 1024]}
                  exclude: [{photo: sunset, size: 1024}]
                op: exec
                needs: load
                command: [echo, "${item.photo}", "${item.size}", "${item}"]
              all: {op: group, needs: thumb}
            """)
        let graph = pipeline.graph
        #expect(
            graph.nodes.map(\.id) == [
                "load[mountains]", "load[sunset]", "thumb[mountains,320]", "thumb[mountains,1024]", "thumb[sunset,320]",
                "all",
            ])
        #expect(graph.nodes.map(\.dependencies) == [[], [], [0], [0], [1], [2, 3, 4]])
        #expect(graph.nodes[3].parameters.list("command") == ["echo", "mountains", "1024", "mountains,1024"])
        #expect(
            pipeline.notes.map(\.description) == [
                "test.yaml:10:12: note: operation 'thumb' pairs with 'load' on axis 'photo'"
            ])
        #expect(pipeline.warnings.isEmpty)
    }

    @Test func aMatrixPairsWithAMatrixOnItsAxesAndInputNamesThePairedInstance() throws {
        let pipeline = try load(
            """
            version: 1
            operations:
              make: {foreach: {matrix: {a: [x, y], b: [p]}}, op: exec, command: [echo, "${item.a}"]}
              keep: {foreach: {matrix: {a: [x, y], b: [p]}}, op: save, needs: make, path: "${item.a}.txt"}
              more: {foreach: {matrix: {c: [1], a: [x, y], b: [p]}}, op: save, needs: [keep, make], input: make, path:\
             "${item.c}${item.a}.txt"}
            """)
        let nodes = pipeline.graph.nodes
        #expect(nodes.map(\.id) == ["make[x,p]", "make[y,p]", "keep[x,p]", "keep[y,p]", "more[1,x,p]", "more[1,y,p]"])
        #expect(nodes.map(\.dependencies) == [[], [], [0], [1], [2, 0], [3, 1]])
        #expect(nodes[5].setup?.preferredInput == "make[y,p]")
        #expect(
            pipeline.notes.map(\.description) == [
                "test.yaml:5:76: note: operation 'more' pairs with 'keep' on axes 'a', 'b'",
                "test.yaml:5:82: note: operation 'more' pairs with 'make' on axes 'a', 'b'",
            ])
    }

    @Test func whyNoAxisCouldPair() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  load: {foreach: [mountains], op: group}
                  m: {foreach: {matrix: {a: [x], b: [mountains, y]}}, op: group, needs: load}
                  n: {foreach: [x], op: group, needs: m}
                  o: {foreach: {matrix: {c: [1]}}, op: group, needs: m}
                  p: {foreach: {matrix: {a: [x], b: [mountains]}, exclude: [{c: 1}, {a: x, b: 2}]}, op: group}
                  q: {foreach: {matrix: [x]}, op: group}
                  r: {foreach: {matrix: {a: {glob: "none/*"}}, allow_empty: true}, op: group}
                  s: {foreach: {matrix: {a: {glob: "none/*", allow_empty: yes, exclude: []}}}, op: group}
                """) == [
                    "test.yaml:4:73: error: cannot pair matrix operation 'm' with 'load': no axis has only items of "
                        + "'load' (axis 'a' has 'x', axis 'b' has 'y')",
                    "test.yaml:5:39: error: cannot pair 'n' with matrix operation 'm' item by item: give 'n' a matrix "
                        + "with the axes of 'm', or need 'm' from an operation without 'foreach'",
                    "test.yaml:6:54: error: cannot pair matrix operation 'o' with matrix operation 'm': 'o' has no "
                        + "axis 'a', 'b'",
                    "test.yaml:7:62: error: operation 'p': 'exclude' names axis 'c', which the matrix does not have; "
                        + "did you mean 'a'?",
                    "test.yaml:8:25: error: operation 'q': 'matrix' must be a mapping of axis names to items, "
                        + "not a list",
                    "test.yaml:9:36: error: operation 'r': foreach glob 'none/*' matches no file",
                    "test.yaml:9:61: error: operation 'r': 'allow_empty' goes with 'glob', inside the axis",
                    "test.yaml:10:64: error: operation 's': axis 'a': unknown key 'exclude'",
                ])
    }
}
