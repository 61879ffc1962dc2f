import ArgumentParser
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting

/// `taskgraph list-ops`: every operation type with its parameters.
struct ListOpsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-ops",
        abstract: "List every operation type with what it consumes, produces and its parameters.",
        discussion:
            "Then the keys every pipeline file and every operation can set, as 'taskgraph help keys' prints them.")

    func run() async throws {
        let catalog = OperationCatalog(registry: .builtIn)
        TextOutput.standardOutput.write(catalog.render() + catalog.renderKeys())
        TextOutput.standardOutput.flush()
    }
}
