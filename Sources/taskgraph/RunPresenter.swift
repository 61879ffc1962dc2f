import Foundation
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting

/// Chooses how a run is shown (live display on a terminal, plain lines otherwise), adds the
/// JSON event stream and the trace when asked, and prints the summary at the end.
struct RunPresenter {
    /// Receives the engine's events.
    let sink: any EventSink
    private let display: LiveStatusDisplay?
    /// The event stream's writer and where it goes (`standard output` for `--json`).
    private let eventOutput: (output: TextOutput, name: String)?
    private let trace: (recorder: TraceRecorder, path: String)?
    private let reportRecorder: ReportRecorder?
    private let remoteJobs = RemoteJobLog()

    /// - Parameters:
    ///   - plain: plain log lines even on a terminal (`--no-progress`).
    ///   - eventsPath: `--events FILE`; `-` means standard output (`--json`).
    ///   - tracePath: `--trace FILE`.
    ///   - recordsReport: keep the events for the HTML report (`--report`).
    ///   - logs: how programs' lines are shown (`--logs`).
    init(
        graph: ExecutionGraph, pipeline: String, plain: Bool, eventsPath: String?, tracePath: String?,
        recordsReport: Bool = false, logs: ProgramOutputLog.Mode = .prefixed
    ) throws {
        let environment = ProcessEnvironment.variables
        let output = TextOutput.standardError
        let live = output.isTerminal && !plain && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        var sinks: [any EventSink] = []
        let command =
            eventsPath != nil || recordsReport ? RedactedCommandLine.redact(CommandLine.arguments, graph: graph) : []
        // Programs' lines first: a failed operation's come before the line saying it failed.
        if live {
            let display = LiveStatusDisplay(graph: graph, output: output)
            self.display = display
            sinks += [ProgramOutputLog(graph: graph, mode: logs, write: display.print), display]
        } else {
            display = nil
            sinks += [
                ProgramOutputLog(graph: graph, mode: logs, write: output.write),
                PlainLogReporter(graph: graph, output: output),
            ]
        }
        if let eventsPath {
            let events = eventsPath == "-" ? TextOutput.standardOutput : try TextOutput(creatingFile: eventsPath)
            eventOutput = (events, eventsPath == "-" ? "standard output" : eventsPath)
            sinks.append(JSONEventWriter(graph: graph, pipeline: pipeline, output: events, command: command))
        } else {
            eventOutput = nil
        }
        if let tracePath {
            let recorder = TraceRecorder(graph: graph)
            trace = (recorder, tracePath)
            sinks.append(recorder)
        } else {
            trace = nil
        }
        reportRecorder = recordsReport ? ReportRecorder(graph: graph, pipeline: pipeline, command: command) : nil
        if let reportRecorder { sinks.append(reportRecorder) }
        sinks.append(remoteJobs)
        sink = EventFanOut(sinks)
    }

    /// Runs `body` with the live display (if any) drawing beside it, in one task group; the
    /// display is erased once `body` returns.
    func displaying<Result>(_ body: () async -> Result) async -> Result {
        await withTaskGroup(of: Void.self) { group in
            if let display { group.addTask { await display.run() } }
            let result = await body()
            group.cancelAll()
            return result
        }
    }

    /// Erases the live display (if any) and shows the cursor at once, for a process about to
    /// end. Blocking.
    func restoreTerminal() {
        display?.restoreTerminal()
    }

    /// Erases the live display (if any) and shows the cursor until `showDisplay()`, for a process
    /// about to stop (Ctrl-Z). Blocking.
    func hideDisplay() {
        display?.hide()
    }

    /// Draws the live display (if any) again after `hideDisplay()`.
    func showDisplay() {
        display?.show()
    }

    /// The summary table of the run that ended with `report`, rendered while the store is
    /// updated (on a run of many operations, that takes one core, and the table another).
    func summary(of report: RunReport, graph: ExecutionGraph) -> String {
        var summary = RunSummary(report: report, graph: graph)
        summary.remoteJobs = remoteJobs.lastStatuses
        return summary.render()
    }

    /// Finishes the event stream and trace, prints `summary` (the table `summary(of:graph:)`
    /// rendered), and says which of the two could not be written, with the reason.
    /// - Returns: false when one of them could not be written (a closed pipe on standard output
    ///   is not said: it cancelled the run).
    func finish(summary: String) async -> Bool {
        let output = TextOutput.standardError
        var written = true
        if let (events, name) = eventOutput {
            events.flush()
            if let code = events.failure, !(events === TextOutput.standardOutput && code == EPIPE) {
                output.write("taskgraph: cannot write the events to \(name): \(String(cString: strerror(code)))\n")
                written = false
            }
        }
        if let (recorder, path) = trace {
            do {
                try await BlockingIO.run { try recorder.write(to: path) }
            } catch {
                output.write("taskgraph: cannot write the trace: \(error)\n")
                written = false
            }
        }
        output.write("\n" + summary)
        output.flush()
        return written
    }

    /// Writes the HTML report (`--report`) of the run, with thumbnails of the images it saved;
    /// on failure says why and returns false.
    func writeReport(_ report: RunReport, graph: ExecutionGraph, to path: String) async -> Bool {
        guard let reportRecorder else { return false }
        let run: RecordedRun
        do {
            run = try reportRecorder.recordedRun()
        } catch {
            TextOutput.standardError.write("taskgraph: cannot write the report: \(error)\n")
            return false
        }
        let previews = await ReportPreviews.make(graph: graph, report: report)
        return await ReportCommand.write(HTMLReport(run: run, previews: previews), to: path)
    }
}
