import ArgumentParser
import TaskGraphCore
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphCrypto
import TaskGraphReporting

/// `taskgraph`: runs and checks dependency-graph pipelines.
@main
struct TaskGraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskgraph",
        abstract: "Run dependency-graph pipelines described in YAML.",
        discussion: """
            Exit codes: 0 success, 1 an operation failed, 2 invalid pipeline, 64 usage error,
            130 interrupted (SIGINT), 143 terminated (SIGTERM).

            \(OperationCatalog.renderKeys())
            """,
        version: "0.1.0",
        subcommands: [
            RunCommand.self, ValidateCommand.self, GraphCommand.self, ListOpsCommand.self,
            SchemaCommand.self,
        ])

    /// Traps SIGINT and SIGTERM before anything else (so every command exits 130 or 143 on
    /// them), then parses the arguments and runs the command.
    static func main() async {
        await InterruptibleRun.trapSignals()
        await main(nil)
    }
}
