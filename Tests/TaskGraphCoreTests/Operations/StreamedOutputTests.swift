import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// Which programs' standard output `run --logs` leaves out: the output a dependent reads as data.
struct StreamedOutputTests {
    @Test func outputReadByADependentIsNotStreamed() throws {
        let graph = try plannedGraph(
            """
            version: 1
            operations:
              a: {op: exec, command: [echo, a]}
              b: {op: exec, needs: a, stdin: true, command: [cat]}
              c: {op: exec, needs: b, command: [echo, c]}
              d: {op: save, needs: c, path: d.txt}
              e: {op: exec, needs: [a, c], input: c, stdin: true, command: [cat]}
              f: {op: exec, needs: e, command: [echo, f]}
            """)
        let streamed = StreamedOutput(graph: graph, registry: .core)
        // `b` reads `a`, `d` and `e` read `c` (`e` chooses it with `input:`); `c` and `f` only
        // wait for theirs.
        #expect(streamed.consumedOutputs == ["a", "c"])
        #expect(!streamed.streamsStandardOutput(of: "a") && streamed.streamsStandardOutput(of: "b"))
    }
}
