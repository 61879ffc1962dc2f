import CImageShims
import TaskGraphCore

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

    /// `image` toned with `intensity` (0...1). When the caller hands over the only reference to
    /// `image`, the result is written over its pixels (no second image in memory). The pixel loop
    /// is `tg_sepia` (C, so that it has an AVX2 build).
    static func apply(to image: consuming Image, intensity: Double) async throws -> Image {
        let matrix = coefficients(intensity: intensity)
        let output = image.storageForResult()
        let (source, channels, width, height) = (image.storage, image.channels, image.width, image.height)
        let rowBytes = image.rowStride
        let bandSize = ParallelBands.bandSize(itemSize: rowBytes)
        // A second image, when the input cannot be overwritten, is working memory.
        let secondImage = output === source ? 0 : output.count
        try await WorkingMemoryBudget.withReservationInCurrentRun(of: secondImage) {
            try await ParallelBands.run(count: height, bandSize: bandSize) { rows in
                // tg_sepia's input and output must not overlap: in place, each chunk of a row is
                // copied out first (it stays in L1).
                let chunk = 2048
                let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk * channels)
                defer { scratch.deallocate() }
                for y in rows {
                    for x in stride(from: 0, to: width, by: chunk) {
                        let count = min(chunk, width - x)
                        let offset = y * rowBytes + x * channels
                        var input = UnsafePointer(source.base + offset)
                        if source === output {
                            scratch.update(from: input, count: count * channels)
                            input = UnsafePointer(scratch)
                        }
                        tg_sepia(input, output.base + offset, count, Int32(channels), matrix)
                    }
                }
            }
        }
        return Image(width: width, height: height, channels: channels, storage: output)
    }
}
