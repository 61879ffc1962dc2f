/// A remote executor a pipeline may name with `executor:` (at the top level, on an operation or
/// under `defaults:`), and the operation keys of its own: what an executor module registers in
/// an `OperationRegistry`, so that the core names no scheduler.
public struct ExecutorDeclaration: Hashable, Sendable {
    /// The name `executor:` takes, e.g. `slurm`.
    public var name: String
    /// Where it runs operations, for the summary of `executor:` ("Where operations run: here,
    /// or …"), e.g. `as jobs of a Slurm cluster`.
    public var summary: String
    /// The operation keys only this executor reads, with their types and summaries; `validate`
    /// checks them, `help` and the schema list them after the cluster keys every executor shares.
    public var settings: [ParameterSpec]

    /// Declares the executor `name`, running operations as `summary` says, with the keys `settings`.
    public init(_ name: String, summary: String, settings: [ParameterSpec] = []) {
        self.name = name
        self.summary = summary
        self.settings = settings
    }
}
