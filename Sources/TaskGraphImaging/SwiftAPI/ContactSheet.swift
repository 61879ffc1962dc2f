import TaskGraphCore

/// `contact-sheet` in Swift: every image it needs on one sheet, keyed as the same
/// `contact-sheet` in a pipeline file.
public struct ContactSheet: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `contact-sheet`; unset parameters take its defaults.
    /// - Throws: `OperationError` with `validate`'s message for a value out of range.
    public init(
        columns: Int? = nil, cellWidth: Int? = nil, padding: Int? = nil, captions: Bool? = nil, maxPixels: Int? = nil
    ) throws {
        configured = try ContactSheetOperation.type.configure(
            Parameters(setting: [
                "columns": columns.map(ParameterValue.integer), "cell_width": cellWidth.map(ParameterValue.integer),
                "padding": padding.map(ParameterValue.integer), "captions": captions.map(ParameterValue.boolean),
                "max_pixels": maxPixels.map(ParameterValue.integer),
            ]))
    }
}
