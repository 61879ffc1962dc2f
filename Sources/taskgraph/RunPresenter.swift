import Foundation
import TaskGraph

/// Chooses how a run is shown (live display on a terminal, plain lines otherwise) and prints the
/// summary at the end.
struct RunPresenter {
    /// Receives the engine's events.
    let sink: any EventSink
    private let display: LiveStatusDisplay?

    init(graph: ExecutionGraph, plain: Bool) {
        let environment = ProcessInfo.processInfo.environment
        let output = TextOutput.standardError
        let live = output.isTerminal && !plain && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        if live {
            let display = LiveStatusDisplay(graph: graph, output: output)
            self.display = display
            sink = display
        } else {
            display = nil
            sink = PlainLogReporter(graph: graph, output: output)
        }
    }

    /// Clears the live display and prints the summary table.
    func finish(report: RunReport, graph: ExecutionGraph) {
        display?.finish()
        let output = TextOutput.standardError
        output.write("\n" + RunSummary(report: report, graph: graph).render())
        output.flush()
    }
}
