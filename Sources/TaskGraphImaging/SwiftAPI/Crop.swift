import TaskGraphCore

/// `crop` in Swift, keyed as the same `crop` in a pipeline file.
public struct Crop: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `crop` of the `width` × `height` rectangle whose top left corner is at `x`, `y`.
    /// - Throws: `OperationError` with `validate`'s message for a value out of range.
    public init(x: Int? = nil, y: Int? = nil, width: Int, height: Int, maxPixels: Int? = nil) throws {
        configured = try GeometryOperations.crop.configure(
            Parameters(setting: [
                "x": x.map(ParameterValue.integer), "y": y.map(ParameterValue.integer),
                "width": .integer(width), "height": .integer(height),
                "max_pixels": maxPixels.map(ParameterValue.integer),
            ]))
    }
}
