/// An action that carries the `OperationSetup` it was made from, so a graph keys it as the same
/// operation in a pipeline file: `ConfiguredAction`, and each built-in operation's Swift type
/// (`Exec`, `Load`, `Save`, `TiltShift`, `Download`, …).
public protocol ConfiguredOperation: TaskAction {
    /// The action with its setup.
    var configured: ConfiguredAction { get }
}

extension ConfiguredOperation {
    /// Runs the configured action.
    public func run(in context: TaskContext) async throws -> any OperationResult {
        try await configured.run(in: context)
    }
}
