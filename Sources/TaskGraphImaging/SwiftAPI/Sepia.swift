import TaskGraphCore

/// `sepia` in Swift: sepia tone, keyed as the same `sepia` in a pipeline file.
public struct Sepia: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `sepia` of `intensity` from 0 (the image unchanged) to 1 (full sepia, the default).
    /// - Throws: `OperationError` with `validate`'s message for a value out of range.
    public init(intensity: Double? = nil, maxPixels: Int? = nil) throws {
        configured = try ToneOperations.sepia.configure(
            Parameters(setting: [
                "intensity": intensity.map(ParameterValue.number), "max_pixels": maxPixels.map(ParameterValue.integer),
            ]))
    }
}
