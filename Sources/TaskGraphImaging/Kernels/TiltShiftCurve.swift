/// The shape of a tilt-shift's transition between sharp and blurred (`falloff_curve`).
public enum TiltShiftCurve: String, Sendable, CaseIterable {
    /// An S-shaped ramp (`3t² − 2t³`): the default.
    case smoothstep
    /// A straight ramp.
    case linear
}
