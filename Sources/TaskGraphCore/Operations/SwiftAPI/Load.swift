/// `load` in Swift: reads a file, keyed as the same `load` in a pipeline file.
public struct Load: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `load` of `path`, relative to `directory` (a pipeline file's directory) unless absolute.
    /// - Throws: `OperationError` with `validate`'s message for a value it does not accept.
    public init(path: String, maxBytes: Int? = nil, directory: String) throws {
        configured = try LoadOperation.type.configure(
            Parameters(setting: ["path": .string(path), "max_bytes": maxBytes.map(ParameterValue.integer)]),
            pipelineDirectory: directory)
    }
}
