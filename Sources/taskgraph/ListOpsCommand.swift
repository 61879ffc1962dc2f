import ArgumentParser
import TaskGraphCore
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphCrypto
import TaskGraphReporting

/// `taskgraph list-ops`: every operation type with its parameters.
struct ListOpsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-ops",
        abstract: "List every operation type with what it consumes, produces and its parameters.")

    func run() async throws {
        TextOutput.standardOutput.write(OperationCatalog(registry: .builtIn).render())
        TextOutput.standardOutput.flush()
    }
}
