import CImageShims
import TaskGraphCore

/// One box-filter pass (a running mean of `2·radius + 1` samples, edges extended) along a row
/// (`ColumnBoxCascade` runs them down columns). Samples are 8.8 fixed point; sums stay below 2²⁴
/// for radius ≤ 128, so the `Float` reciprocal used to divide is exact to well under one unit.
/// Arithmetic is wrapping (it cannot overflow in range) and rounding branch-free. With AVX2, long
/// rows go through `tg_blur_box_row` (C), which runs the two halves of the row side by side.
enum BoxFilter {
    /// Filters `count` interleaved pixels of `channels` (3 or 4) samples from `input` into
    /// `output`, all channels of a pixel at once in one vector. Both buffers need one sample
    /// beyond the row: with 3 channels a pixel is read and written as 4 samples (the extra one is
    /// the next pixel's, written over by the next step).
    static func row(
        _ input: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<Int32>,
        count: Int, channels: Int, radius: Int
    ) {
        precondition(channels == 3 || channels == 4)
        if tg_blur_box_row(input, output, count, Int32(channels), Int32(radius)) != 0 { return }
        guard radius > 0 else {
            output.update(from: input, count: count * channels)
            return
        }
        let scale = 1 / Float(2 * radius + 1)
        let last = count - 1
        @inline(__always) func pixel(_ x: Int) -> SIMD4<Int32> {
            UnsafeRawPointer(input + x * channels).loadUnaligned(as: SIMD4<Int32>.self)
        }
        var sum = pixel(0) &* Int32(radius + 1)
        for k in 1...radius { sum &+= pixel(min(k, last)) }
        @inline(__always) func step(_ x: Int, adding add: Int, removing remove: Int) {
            let mean = SIMD4<Float>(sum) * scale + 12_582_912
            let rounded = unsafeBitCast(mean, to: SIMD4<Int32>.self) &- 0x4B40_0000
            UnsafeMutableRawPointer(output + x * channels).storeBytes(of: rounded, as: SIMD4<Int32>.self)
            sum &+= pixel(add) &- pixel(remove)
        }
        // Indices are clamped to the row near its ends only.
        var x = 0
        while x < min(radius, count) {
            step(x, adding: min(x + radius + 1, last), removing: 0)
            x += 1
        }
        while x < count - radius - 1 {
            step(x, adding: x + radius + 1, removing: x - radius)
            x += 1
        }
        while x < count {
            step(x, adding: last, removing: max(x - radius, 0))
            x += 1
        }
    }
}

extension Float {
    /// The nearest integer (ties to even) for magnitudes below 2²², computed by adding 1.5·2²³
    /// and reading the mantissa (`BoxFilter.row` does the same on vectors): no range check, so
    /// loops using it vectorize.
    @inline(__always)
    var roundedInt32: Int32 {
        Int32(bitPattern: (self + 12_582_912).bitPattern) &- 0x4B40_0000
    }
}
