import TaskGraphCore

/// `tilt-shift` in Swift: the miniature effect, keyed as the same `tilt-shift` in a pipeline
/// file. Unset parameters take `tilt-shift`'s defaults (σ 7, band 0.4…0.6, falloff 0.2,
/// smoothstep).
///
/// ```swift
/// let tilt = try TiltShift(blurRadius: 6, topFocus: 0.4)
/// try graph.add("tilt", action: tilt, needs: [decrypt])
/// ```
public struct TiltShift: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `tilt-shift` with the parameters a pipeline file would give it; nil leaves one unset.
    /// - Throws: `OperationError` with `validate`'s message for a value out of range, or
    ///   `ImageError.focusBandInverted` when `topFocus` is below `bottomFocus`.
    public init(
        blurRadius: Double? = nil, topFocus: Double? = nil, bottomFocus: Double? = nil, falloff: Double? = nil,
        falloffCurve: TiltShiftCurve? = nil, maxPixels: Int? = nil
    ) throws {
        configured = try BlurOperations.tiltShift.configure(
            Parameters(setting: [
                "blur_radius": blurRadius.map(ParameterValue.number), "top_focus": topFocus.map(ParameterValue.number),
                "bottom_focus": bottomFocus.map(ParameterValue.number), "falloff": falloff.map(ParameterValue.number),
                "falloff_curve": falloffCurve.map { .string($0.rawValue) },
                "max_pixels": maxPixels.map(ParameterValue.integer),
            ]))
    }
}
