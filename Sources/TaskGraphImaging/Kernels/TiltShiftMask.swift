import TaskGraphCore

/// The tilt-shift blend mask (after GPUImage's GPUImageTiltShiftFilter): how blurred each row is,
/// `w(y) = 1 − s(top − falloff, top, y) + s(bottom, bottom + falloff, y)` with `y = row / height`
/// and `s` a smoothstep or a linear ramp. 0 inside the focus band, 1 far from it.
struct TiltShiftMask: Sendable, Equatable {
    /// The shape of the transition between sharp and blurred.
    typealias Curve = TiltShiftCurve

    /// Top of the sharp band, as a fraction of the height.
    var top: Double
    /// Bottom of the sharp band.
    var bottom: Double
    /// Height of each transition, as a fraction of the height.
    var falloff: Double
    /// The transition's shape.
    var curve: Curve

    /// The mask at `y` (0 = top edge, 1 = bottom edge).
    func weight(at y: Double) -> Double {
        1 - ramp(top - falloff, top, y) + ramp(bottom, bottom + falloff, y)
    }

    /// The mask of every row of an image `height` rows tall, in 0...256 (256 = fully blurred).
    func rowWeights(height: Int) -> [Int32] {
        (0..<height).map { Int32((weight(at: Double($0) / Double(height)) * 256).rounded()) }
    }

    /// 0 below `from`, 1 above `to`, the curve between; a step when `from == to`.
    private func ramp(_ from: Double, _ to: Double, _ x: Double) -> Double {
        guard to > from else { return x < from ? 0 : 1 }
        let t = min(max((x - from) / (to - from), 0), 1)
        return curve == .smoothstep ? t * t * (3 - 2 * t) : t
    }
}
