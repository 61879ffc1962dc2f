import ArgumentParser
import TaskGraphReporting

/// `taskgraph keys`, also `taskgraph help keys`: every key a pipeline file can set.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Every key a pipeline file can set (also: taskgraph help keys).")

    /// `arguments` (without the program name) with `help keys` written `keys`: the reference is
    /// a help topic, printed as it is rather than as the help of a command.
    static func asHelpTopic(_ arguments: [String]) -> [String] {
        arguments == ["help", configuration.commandName] ? Array(arguments.dropFirst()) : arguments
    }

    func run() async throws {
        TextOutput.standardOutput.write(OperationCatalog(registry: .builtIn).renderKeys())
        TextOutput.standardOutput.flush()
    }
}
