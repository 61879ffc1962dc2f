import ArgumentParser
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting

/// `taskgraph schema`: the JSON Schema of pipeline files, for editors.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print a JSON Schema for pipeline files (for the YAML language server and other editors).")

    func run() async throws {
        TextOutput.standardOutput.write(try PipelineSchema(registry: .builtIn).render())
        TextOutput.standardOutput.flush()
    }
}
