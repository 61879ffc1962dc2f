/// Sepia toning: `out = clamp(round(M(a) · rgb), 0, 255)` with
/// `M(a) = (1 − a)·I + a·S` and `S` the W3C/CSS `sepia()` matrix, on stored sRGB values; alpha
/// is untouched. Coefficients are 16.16 fixed point, exact to ±1 (bit-exact at `a = 0`), and never
/// negative for `a` in 0...1, so results only need capping at 255.
enum SepiaKernel {
    /// The W3C matrix, row by row.
    static let sepiaMatrix: [Double] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]

    /// `M(intensity)` in 16.16 fixed point, row by row.
    static func coefficients(intensity: Double) -> [Int32] {
        (0..<9).map { index in
            let identity: Double = index % 4 == 0 ? 1 : 0
            return Int32(((1 - intensity) * identity + intensity * sepiaMatrix[index]) * 65536 + 0.5)
        }
    }

    /// `image` toned with `intensity` (0...1).
    static func apply(to image: Image, intensity: Double) async throws -> Image {
        let m = coefficients(intensity: intensity)
        let output = PixelStorage<UInt8>(count: image.storage.count)
        let (source, channels, rowBytes) = (image.storage, image.channels, image.rowStride)
        let bandSize = ParallelBands.bandSize(itemSize: rowBytes)
        try await ParallelBands.run(count: image.height, bandSize: bandSize) { rows in
            let (r0, r1, r2, g0, g1, g2, b0, b1, b2) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
            let input = source.base, out = output.base
            for index in stride(from: rows.lowerBound * rowBytes, to: rows.upperBound * rowBytes, by: channels) {
                let r = Int32(input[index]), g = Int32(input[index + 1]), b = Int32(input[index + 2])
                out[index] = clamp(r0 &* r &+ r1 &* g &+ r2 &* b)
                out[index + 1] = clamp(g0 &* r &+ g1 &* g &+ g2 &* b)
                out[index + 2] = clamp(b0 &* r &+ b1 &* g &+ b2 &* b)
                if channels == 4 { out[index + 3] = input[index + 3] }
            }
        }
        return Image(width: image.width, height: image.height, channels: channels, storage: output)
    }

    /// A non-negative 16.16 value rounded and capped at 255, branch-free: above 255,
    /// `(255 − v) >> 31` is all ones and so is the result's low byte.
    @inline(__always)
    private static func clamp(_ value: Int32) -> UInt8 {
        let rounded = (value &+ 32768) &>> 16
        return UInt8(truncatingIfNeeded: rounded | ((255 &- rounded) &>> 31))
    }
}
