import Foundation
import OperationTestSupport
import TaskGraphReporting
import Testing

@testable import TaskGraphCore

/// `ProgramOutputLog`: which programs' lines each `--logs` mode shows, and when.
struct ProgramOutputLogTests {
    /// What a log in `mode` writes for a run of `a` and `b`: `a` writes two lines and succeeds,
    /// `b` writes one (control characters and a tab in it) and fails, and a line of `a` is
    /// replayed.
    private func shown(_ mode: ProgramOutputLog.Mode) throws -> [String] {
        var graph = ExecutionGraph()
        for id in ["a", "b"] { try graph.add(id, action: ClosureAction { _ in EmptyResult() }) }
        let written = Locked<[String]>([])
        let log = ProgramOutputLog(graph: graph, mode: mode) { text in written.withLock { $0.append(text) } }
        func line(_ node: Int, _ line: OutputLine) {
            log.receive(EngineEvent(elapsed: .zero, kind: .nodeProgress(node: node, ProgressUpdate(output: line))))
        }
        line(0, OutputLine(.standardOutput, "a1"))
        line(1, OutputLine(.standardError, "b1\tcol \u{1B}[2J"))
        line(0, OutputLine(.standardError, "a2", replayed: true))
        log.receive(EngineEvent(elapsed: .zero, kind: .nodeProgress(node: 0, ProgressUpdate(message: "not a line"))))
        log.receive(finished(0, .succeeded))
        log.receive(finished(1, .failed("'sh' exited with status 1")))
        return written.withLock { $0 }
    }

    @Test func eachModeShowsItsLines() throws {
        #expect(try shown(.prefixed) == ["a | a1\n", "b | b1\tcol \\u{1B}[2J\n", "a (replayed) | a2\n"])
        #expect(try shown(.grouped) == ["a | a1\na (replayed) | a2\n", "b | b1\tcol \\u{1B}[2J\n"])
        #expect(try shown(.errors) == ["b | b1\tcol \\u{1B}[2J\n"])
        #expect(try shown(.none) == [])
    }

    @Test func heldLinesPastTheLimitAreCutToTheirTail() throws {
        var graph = ExecutionGraph()
        try graph.add("long", action: ClosureAction { _ in EmptyResult() })
        let written = Locked<[String]>([])
        let log = ProgramOutputLog(graph: graph, mode: .grouped) { text in written.withLock { $0.append(text) } }
        let text = String(repeating: "x", count: 1023)
        for _ in 0..<100 {
            log.receive(
                EngineEvent(
                    elapsed: .zero,
                    kind: .nodeProgress(node: 0, ProgressUpdate(output: OutputLine(.standardError, text)))))
        }
        log.receive(finished(0, .succeeded))
        let lines = try #require(written.withLock { $0.first }).split(separator: "\n")
        #expect(lines.first == "long | … 102.4 kB of output, the last 65.5 kB:")
        #expect(lines.count == 1 + 64)
    }
}
