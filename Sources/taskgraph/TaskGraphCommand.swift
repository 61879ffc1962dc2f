import ArgumentParser
import CSystemShims
import Foundation
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting
import UnixSignals

/// `taskgraph`: runs and checks dependency-graph pipelines.
@main
struct TaskGraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskgraph",
        // No abstract: `taskgraph --help` starts with the usage and the subcommands (README says
        // what taskgraph is; `help keys` has the pipeline file's keys, `run --help` the exit codes).
        version: version,
        subcommands: [
            RunCommand.self, ListCommand.self, ExplainCommand.self, ValidateCommand.self, GraphCommand.self,
            ReportCommand.self, CacheCommand.self, ListOpsCommand.self, KeysCommand.self, SchemaCommand.self,
            WorkerCommand.self,
        ])

    /// The version `--version` prints.
    static let version = "0.1.0"

    /// Answers `taskgraph --version` at once (scripts and editors call it to probe for the tool);
    /// otherwise keeps freed memory for reuse (`tg_keep_freed_memory`), raises the open-file limit, traps SIGINT,
    /// SIGTERM and SIGHUP before anything else (so every command cleans up on them, then
    /// dies by them), ignores SIGPIPE (a closed output pipe cancels a run like them), flushes
    /// standard output and error at `exit`, traps the job-control signals (SIGTSTP, SIGCONT, SIGUSR1), then parses the
    /// arguments (after writing a bare `--lint` and `--force` and `help keys` as the parser takes
    /// them) and runs the command, with the signal handlers beside it in one task group.
    static func main() async {
        if CommandLine.arguments.dropFirst().elementsEqual(["--version"]) {
            print(version)
            return
        }
        #if canImport(Glibc)
            tg_keep_freed_memory()
        #endif
        FileDescriptorLimit.raiseToHardLimit()
        signal(SIGPIPE, SIG_IGN)
        for output in [TextOutput.standardOutput, TextOutput.standardError] {
            output.onFailure { code in
                if code == EPIPE { DispatchQueue.global().async { InterruptibleRun.brokenPipe() } }
            }
        }
        // Whatever ends the process with `exit` (an error of a command, `exit(withError:)`)
        // writes what is queued first.
        atexit {
            TextOutput.standardOutput.flush()
            TextOutput.standardError.flush()
        }
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm, .sighup, .sigcont, .sigusr1)
        await withDiscardingTaskGroup { group in
            group.addTask { await InterruptibleRun.handleSignals(signals) }
            group.addTask { await JobControl.handleTerminalStops() }
            let arguments = Array(CommandLine.arguments.dropFirst())
            await main(KeysCommand.asHelpTopic(ReuseArguments.withBareForce(LintArguments.withImplicitMode(arguments))))
            group.cancelAll()
        }
    }
}
