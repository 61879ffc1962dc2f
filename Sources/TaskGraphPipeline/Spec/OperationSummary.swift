/// One entry of a pipeline's `operations:` as written: what `taskgraph list` shows.
public struct OperationSummary: Hashable, Sendable {
    /// The operation id (`tilt`; its instances are `tilt[lake]` …).
    public var id: String
    /// The operation type (`op:`).
    public var type: String
    /// `description:`, if written.
    public var description: String?

    /// A summary of the operation `id`.
    public init(id: String, type: String, description: String?) {
        self.id = id
        self.type = type
        self.description = description
    }
}
