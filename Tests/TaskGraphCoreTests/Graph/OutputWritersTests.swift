import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// Two writers of one output path, after expansion and normalisation, are a validate error
/// naming both, with where each one names it: otherwise which file survives depends on scheduling.
@Suite struct OutputWritersTests {
    @Test func twoSavesOfOnePathAreAnErrorNamingBoth() {
        #expect(
            diagnostics(
                """
                version: 1
                vars: {names: [a, b]}
                operations:
                  g: {op: exec, command: [echo, hi]}
                  one: {op: save, needs: [g], path: x.txt}
                  two: {op: save, needs: [g], path: ./x.txt}
                  each: {op: save, foreach: "${names}", needs: [g], path: "sub/../y.txt"}
                  three: {op: save, needs: [g], path: y.txt}
                  fine: {op: save, foreach: "${names}", needs: [g], path: "${item}.txt"}
                """) == [
                    """
                    test.yaml:6:37: error: 'x.txt' is written by more than one operation: 'one', 'two'; each output\
                     file may have one writer
                    test.yaml:5:37: note: 'x.txt' is written by 'one' here
                    test.yaml:6:37: note: 'x.txt' is written by 'two' here
                    """,
                    """
                    test.yaml:7:59: error: 'y.txt' is written by more than one operation: 'each[a]', 'each[b]',\
                     'three'; each output file may have one writer
                    test.yaml:7:59: note: 'y.txt' is written by 'each[a]' here
                    test.yaml:7:59: note: 'y.txt' is written by 'each[b]' here
                    test.yaml:8:39: note: 'y.txt' is written by 'three' here
                    """,
                ])
    }

    /// An `exec`'s `outputs:` are relative to the pipeline file: the message shows them so, at
    /// the entries that name them.
    @Test func twoExecsDeclaringOneOutputAreLocatedAtTheirEntries() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  b: {op: exec, foreach: [x, y], command: [echo], outputs: [same.txt]}
                  c:
                    op: exec
                    command: [echo]
                    outputs: [other.txt, same.txt]
                """) == [
                    """
                    test.yaml:3:61: error: 'same.txt' is written by more than one operation: 'b[x]', 'b[y]', 'c'; each\
                     output file may have one writer
                    test.yaml:3:61: note: 'same.txt' is written by 'b[x]' here
                    test.yaml:3:61: note: 'same.txt' is written by 'b[y]' here
                    test.yaml:7:26: note: 'same.txt' is written by 'c' here
                    """
                ])
    }

    @Test func normalisationAppliesDotDotLexically() {
        #expect(PathResolver.normalized("/o/./a/../x.txt") == "/o/x.txt")
        #expect(PathResolver.normalized("/o//b/") == "/o/b")
        #expect(PathResolver.normalized("/o/a/..") == "/o")
        #expect(PathResolver.normalized("/o/..a/b.") == "/o/..a/b.")
        #expect(PathResolver.normalized("/") == "/")
        #expect(PathResolver.normalized("o/x") == "/o/x")
    }
}
