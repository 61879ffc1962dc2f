import TaskGraphCore

/// `blur` in Swift: a Gaussian blur, keyed as the same `blur` in a pipeline file.
public struct Blur: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `blur` of σ `blurRadius` pixels (default 2).
    /// - Throws: `OperationError` with `validate`'s message for a value out of range.
    public init(blurRadius: Double? = nil, maxPixels: Int? = nil) throws {
        configured = try BlurOperations.blur.configure(
            Parameters(setting: [
                "blur_radius": blurRadius.map(ParameterValue.number),
                "max_pixels": maxPixels.map(ParameterValue.integer),
            ]))
    }
}
