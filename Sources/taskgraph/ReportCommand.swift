import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphReporting

/// `taskgraph report`: the HTML report of a run recorded with `run --events`.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Make the HTML report of a run from its recorded events ('run --events').",
        discussion: """
            The page is one self-contained file (nothing is fetched: it opens offline and from an \
            email attachment): header, failures first, timeline, graph with its critical path and a \
            table of every operation. Exit codes: 0 written, 1 the page cannot be written, 2 the \
            events cannot be read or are not a taskgraph event stream (nothing is written).
            """)

    @Argument(
        help: "The JSON Lines event file written by 'taskgraph run --events'.", completion: .file(extensions: ["jsonl"])
    )
    var events: String

    @Option(name: [.short, .long], help: ArgumentHelp("Write the HTML report to this file.", valueName: "file"))
    var output: String

    func run() async throws {
        do {
            try await RunDestinations.checkFile(output, option: "--output")
        } catch let error as ValidationError {
            // Exit 1, as for any page that cannot be written (README, "Exit codes").
            TextOutput.standardError.write("taskgraph: cannot write the report: \(error.message)\n")
            TextOutput.standardError.flush()
            throw ExitCode(CLIExitCode.operationFailed)
        }
        try await RunDestinations.checkDistinct([
            (name: "the events file", path: events), (name: "--output", path: output),
        ])
        let path = events
        let run: RecordedRun
        do {
            let data = try await BlockingIO.run { try FileIO.read(path) }
            run = try RecordedRun.read(data, source: path)
        } catch {
            TextOutput.standardError.write("taskgraph: \(error)\n")
            TextOutput.standardError.flush()
            throw ExitCode(CLIExitCode.invalidPipeline)
        }
        guard await Self.write(HTMLReport(run: run), to: output) else { throw ExitCode(CLIExitCode.operationFailed) }
    }

    /// Writes `report` to `path` (atomically, unless it is a FIFO or a device:
    /// `RequestedOutputFile`); on failure says why on standard error and returns false.
    static func write(_ report: HTMLReport, to path: String) async -> Bool {
        do {
            try await BlockingIO.run { try report.write(to: path) }
            return true
        } catch {
            TextOutput.standardError.write("taskgraph: cannot write the report: \(error)\n")
            TextOutput.standardError.flush()
            return false
        }
    }
}
