/// The operation types and remote executors a pipeline may name, as declared: what the reader
/// and the planner check a pipeline against (`OperationRegistry.declarations` in the core).
public struct OperationDeclarations: Sendable {
    /// Every declared type, by name.
    public var types: [String: OperationDeclaration]
    /// Every remote executor, in the order registered.
    public var executors: [ExecutorDeclaration]

    /// Declarations of `types` and `executors`.
    public init(types: [String: OperationDeclaration] = [:], executors: [ExecutorDeclaration] = []) {
        self.types = types
        self.executors = executors
    }

    /// The names `executor:` accepts: `local`, then each executor's.
    public var executorNames: [String] { ["local"] + executors.map(\.name) }

    /// The type called `name`, if declared.
    public subscript(name: String) -> OperationDeclaration? { types[name] }
}
