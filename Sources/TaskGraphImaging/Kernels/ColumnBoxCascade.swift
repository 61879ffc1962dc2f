import CImageShims
import TaskGraphCore

/// Box filters run down the columns of a block of rows, one after the other, taking the rows one
/// at a time and handing back each filtered row as soon as it is final.
///
/// Each pass keeps only the rows its window still needs (`2·radius + 2`) and a running sum per
/// column, so a block of any height is filtered in a few hundred kilobytes. Row `y` of a pass is
/// `round(Σ in[clamp(y + k)] / (2·radius + 1))` for `k` in `−radius...radius`, rows clamped to the
/// block (edges extended), samples 8.8 fixed point: exactly what a whole-block column pass with
/// running sums computes. Arithmetic is wrapping and rounding branch-free; the step along a row is
/// `tg_blur_column_step` (C, so that it has an AVX2 build).
final class ColumnBoxCascade {
    /// One pass: its window of input rows (a ring) and its running sums.
    private struct Pass {
        let radius: Int
        let scale: Float
        let ring: UnsafeMutablePointer<UInt16>
        let slots: Int
        let sums: UnsafeMutablePointer<Int32>
        /// Input rows received and output rows handed on so far.
        var received = 0
        var emitted = 0
    }

    /// Samples per row.
    private let width: Int
    /// Rows in the block.
    private let rows: Int
    private var passes: [Pass]
    /// The last pass's output row.
    private let result: UnsafeMutablePointer<UInt16>

    /// Passes of `radii`, in order, over blocks of at most `maximumRows` rows of `width` samples.
    init(radii: [Int], width: Int, rows maximumRows: Int) {
        self.width = width
        self.rows = maximumRows
        passes = radii.map { radius in
            let slots = 2 * radius + 2
            return Pass(
                radius: radius, scale: 1 / Float(2 * radius + 1),
                ring: .allocate(capacity: slots * width), slots: slots, sums: .allocate(capacity: width))
        }
        result = .allocate(capacity: width)
    }

    deinit {
        for pass in passes {
            pass.ring.deallocate()
            pass.sums.deallocate()
        }
        result.deallocate()
    }

    /// The bytes a cascade of `radii` over rows of `width` samples holds.
    static func bytes(radii: [Int], width: Int) -> Int {
        radii.reduce(0) { $0 + (2 * $1 + 2) * width * 2 + width * 4 } + width * 2
    }

    /// Filters a block of `count` rows (at most the `rows` given at creation): `fill` writes input
    /// row `p` into the buffer it is given, `emit` receives output row `q` of the last pass (valid
    /// during the call). Rows come out in order, each as soon as the rows below it it depends on
    /// have gone in.
    func filter(
        rows count: Int, fill: (_ p: Int, _ row: UnsafeMutablePointer<UInt16>) -> Void,
        emit: (_ q: Int, _ row: UnsafePointer<UInt16>) -> Void
    ) {
        precondition(count > 0 && count <= rows)
        for index in passes.indices {
            passes[index].received = 0
            passes[index].emitted = 0
        }
        for p in 0..<count {
            fill(p, slot(of: 0, row: p))
            passes[0].received += 1
            drain(count: count, emit: emit)
        }
        drain(count: count, emit: emit)
    }

    /// Hands on every row that can be computed from the rows received so far.
    private func drain(count: Int, emit: (Int, UnsafePointer<UInt16>) -> Void) {
        var progressed = true
        while progressed {
            progressed = false
            for index in passes.indices where canEmit(index, count: count) {
                let last = index == passes.count - 1
                let target = last ? result : slot(of: index + 1, row: passes[index + 1].received)
                let y = passes[index].emitted
                step(index, into: target, count: count)
                if last {
                    emit(y, UnsafePointer(result))
                } else {
                    passes[index + 1].received += 1
                }
                progressed = true
            }
        }
    }

    /// Whether pass `index` has every input row its next output row needs.
    private func canEmit(_ index: Int, count: Int) -> Bool {
        let pass = passes[index]
        return pass.emitted < count && pass.received > min(pass.emitted + pass.radius, count - 1)
    }

    /// The ring slot of input row `row` of pass `index`.
    private func slot(of index: Int, row: Int) -> UnsafeMutablePointer<UInt16> {
        passes[index].ring + (row % passes[index].slots) * width
    }

    /// Computes the next output row of pass `index` into `target`.
    private func step(_ index: Int, into target: UnsafeMutablePointer<UInt16>, count: Int) {
        let (radius, sums, scale, width) = (passes[index].radius, passes[index].sums, passes[index].scale, width)
        let y = passes[index].emitted
        let last = count - 1
        if y == 0 {
            let first = slot(of: index, row: 0)
            for i in 0..<width { sums[i] = Int32(first[i]) &* Int32(radius + 1) }
            for k in stride(from: 1, through: radius, by: 1) {
                let row = slot(of: index, row: min(k, last))
                for i in 0..<width { sums[i] = sums[i] &+ Int32(row[i]) }
            }
            // Adding and removing the same row leaves the sums as they are.
            tg_blur_column_step(first, first, sums, target, width, scale)
        } else {
            let add = slot(of: index, row: min(y + radius, last))
            let remove = slot(of: index, row: max(y - 1 - radius, 0))
            tg_blur_column_step(add, remove, sums, target, width, scale)
        }
        passes[index].emitted += 1
    }
}
