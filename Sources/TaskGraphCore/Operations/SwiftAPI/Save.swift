/// `save` in Swift: writes its input to a file atomically, keyed as the same `save` in a
/// pipeline file.
public struct Save: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `save` to `path` inside `outputDirectory`.
    /// - Parameters:
    ///   - encoder: how images are encoded (`ImagingOperations.saveEncoder`); without one,
    ///     `save` writes bytes as they are and takes no `format` or `quality`.
    /// - Throws: `OperationError` with `validate`'s message for a value it does not accept
    ///   (a path that leaves the output directory, a quality outside 1…100).
    public init(
        path: String, format: String? = nil, quality: Int? = nil, outputDirectory: String,
        encoder: (any SaveEncoder)? = nil
    ) throws {
        configured = try SaveOperation.type(encoder: encoder).configure(
            Parameters(setting: [
                "path": .string(path), "format": format.map(ParameterValue.string),
                "quality": quality.map(ParameterValue.integer),
            ]),
            outputDirectory: outputDirectory)
    }
}
