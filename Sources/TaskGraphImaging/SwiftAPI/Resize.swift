import TaskGraphCore

/// `resize` in Swift, keyed as the same `resize` in a pipeline file.
public struct Resize: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `resize` to fit `width` × `height`, or to a longer side of at most `maxSide`.
    /// - Throws: `OperationError` with `validate`'s message for a value out of range, or the
    ///   `ImageError` `validate` reports for a combination `resize` does not take.
    public init(width: Int? = nil, height: Int? = nil, maxSide: Int? = nil, maxPixels: Int? = nil) throws {
        configured = try GeometryOperations.resize.configure(
            Parameters(setting: [
                "width": width.map(ParameterValue.integer), "height": height.map(ParameterValue.integer),
                "max_side": maxSide.map(ParameterValue.integer), "max_pixels": maxPixels.map(ParameterValue.integer),
            ]))
    }
}
