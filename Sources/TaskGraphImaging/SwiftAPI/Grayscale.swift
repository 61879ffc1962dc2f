import TaskGraphCore

/// `grayscale` in Swift, keyed as the same `grayscale` in a pipeline file.
public struct Grayscale: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `grayscale`.
    /// - Throws: `OperationError` with `validate`'s message for a value out of range.
    public init(maxPixels: Int? = nil) throws {
        configured = try ToneOperations.grayscale.configure(
            Parameters(setting: ["max_pixels": maxPixels.map(ParameterValue.integer)]))
    }
}
