import Foundation
import TaskGraphReporting
import Testing

@testable import TaskGraphCore

/// Ids, paths and reasons come from the pipeline and the programs it runs: a control character
/// in them (ESC, newline) is escaped in every human-readable output, never written raw.
@Suite struct ControlCharacterTests {
    private let hostile = "out/a\u{1B}[2Jb\nc.txt"

    @Test func displayTextEscapesControlCharactersOnly() {
        #expect(DisplayText.escaped(hostile) == #"out/a\u{1B}[2Jb\nc.txt"#)
        #expect(DisplayText.escaped("grüße\t✓\u{9B}") == #"grüße\t✓\u{9B}"#)
        #expect(DisplayText.quoted("plain") == "'plain'")
    }

    @Test func theSummaryAndTheLogEscapeThem() throws {
        var graph = ExecutionGraph()
        try graph.add("save[\u{1B}]", action: ClosureAction { _ in EmptyResult() })
        let record = RunReport.NodeRecord(
            id: "save[\u{1B}]", type: "save", outcome: .succeeded, attempts: 1, summary: hostile + " (3 B)")
        let report = RunReport(nodes: [record], wallTime: .milliseconds(10), wasCancelled: false, finalResults: [:])
        let summary = RunSummary(report: report, graph: graph).render()
        #expect(!summary.contains("\u{1B}"))
        #expect(summary.contains(#"save[\u{1B}]  ok           -         out/a\u{1B}[2Jb\nc.txt (3 B)"#))

        let (output, path) = try scratchOutput(named: "log")
        let log = PlainLogReporter(graph: graph, output: output)
        log.receive(finished(0, .failed("cannot write '\(hostile)'")))
        output.flush()
        #expect(
            try contents(of: path) == #"[    0.0s] FAILED    save[\u{1B}]: cannot write 'out/a\u{1B}[2Jb\nc.txt'"#
                + "\n")
    }

    @Test func theLiveDisplayEscapesThemButKeepsItsOwnControlSequences() async throws {
        var graph = ExecutionGraph()
        try graph.add("save[\u{1B}]", action: ClosureAction { _ in EmptyResult() })
        let (output, path) = try scratchOutput(named: "terminal")
        let display = LiveStatusDisplay(graph: graph, output: output, useColor: false)
        display.receive(EngineEvent(elapsed: .zero, kind: .runStarted(nodeCount: 1)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await display.run() }
            while try !contents(of: path).contains("/1  done ") { try? await Task.sleep(for: .milliseconds(10)) }
            display.receive(finished(0, .failed("cannot write '\(hostile)'")))
            group.cancelAll()
        }
        output.flush()
        let screen = try contents(of: path)
        #expect(screen.contains(#"FAILED save[\u{1B}]: cannot write 'out/a\u{1B}[2Jb\nc.txt'"# + "\n"))
        #expect(!screen.contains("\u{1B}[2J"))
    }
}
