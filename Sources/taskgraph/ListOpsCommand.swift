import ArgumentParser
import TaskGraph

/// `taskgraph list-ops`: every operation type with its parameters.
struct ListOpsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-ops",
        abstract: "List every operation type with what it consumes, produces and its parameters.")

    func run() async throws {
        TextOutput.standardOutput.write(OperationCatalog().render())
        TextOutput.standardOutput.flush()
    }
}
