/// An action together with the `OperationSetup` it was made from
/// (`OperationRegistry.makeAction(for:)`).
///
/// `ExecutionGraph.add` takes the setup with the action, so a node added in code is keyed
/// exactly as the same operation in a pipeline file: its type, parameters, declared environment
/// and inputs. Running it runs the action.
public struct ConfiguredAction: ConfiguredOperation {
    /// What the action was made from.
    public let setup: OperationSetup
    /// The action itself.
    public let action: any TaskAction

    /// Pairs `action` with the setup it was made from.
    package init(setup: OperationSetup, action: any TaskAction) {
        self.setup = setup
        self.action = action
    }

    /// Itself.
    public var configured: ConfiguredAction { self }

    /// Runs the action.
    public func run(in context: TaskContext) async throws -> any OperationResult {
        try await action.run(in: context)
    }
}
