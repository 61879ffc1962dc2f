import CImageShims
import Foundation
import TaskGraphCore

/// Gaussian blur approximated by three box passes horizontally and three vertically: O(1) work
/// per sample whatever σ. Intermediate values are 8.8 fixed point, so rounding costs nothing
/// measurable (PSNR against an exact Gaussian stays above 50 dB; see the tests).
///
/// The rows to blur are cut into chunks, four or so per worker, blurred in parallel. A worker
/// streams a chunk top to bottom, with `support` extra rows above and below it (the reach of the
/// three vertical passes), through the row passes and a `ColumnBoxCascade`: each row is filtered
/// across once and its blurred version is final `support` rows later, so results are exact while
/// a worker holds a few hundred kilobytes whatever the image. Optionally blends the blur with the
/// original row by row (`rowWeights`, for tilt-shift): rows of weight 0 are kept and not blurred
/// at all unless a blurred row needs them. Given the only reference to its input, it writes the
/// result in place. The loops across whole rows are C (`tg_blur_*`), which has an AVX2 build.
enum GaussianBlur {
    /// The widths of `passes` box filters whose succession approximates a Gaussian of `sigma`:
    /// `m` boxes of the largest odd width `wl` ≤ √(12σ²/n + 1), then boxes of `wl + 2`.
    static func boxWidths(sigma: Double, passes n: Int = 3) -> [Int] {
        let ideal = (12 * sigma * sigma / Double(n) + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let numerator = 12 * sigma * sigma - Double(n * lower * lower + 4 * n * lower + 3 * n)
        let smaller = Int((numerator / Double(-4 * lower - 4)).rounded())
        return (0..<n).map { $0 < smaller ? lower : lower + 2 }
    }

    /// `image` blurred with `sigma`, mixed with the original by `rowWeights` (0...256 per row,
    /// 256 = fully blurred; nil = blur everything). When the caller hands over the only reference
    /// to `image`, the result is written over its pixels: chunks then read the rows they share
    /// with their neighbours from a copy taken first (`BlurHalo`).
    static func apply(to image: consuming Image, sigma: Double, rowWeights: [Int32]? = nil) async throws -> Image {
        let radii = boxWidths(sigma: sigma).map { ($0 - 1) / 2 }
        let support = radii.reduce(0, +)
        let (width, height, channels, rowBytes) = (image.width, image.height, image.channels, image.rowStride)
        let weights = rowWeights ?? [Int32](repeating: 256, count: height)
        let workers = ProcessInfo.processInfo.activeProcessorCount
        let chunks = Self.chunks(weights: weights, support: support, rowBytes: rowBytes, workers: workers)
        let haloBytes = BlurHalo.bytes(chunks: chunks.count, support: support, rowBytes: rowBytes)
        // In place unless the saved rows would cost more than half an image.
        let output =
            haloBytes <= image.storage.count / 2
            ? image.storageForResult() : PixelStorage<UInt8>(count: image.storage.count)
        let blur = ChunkBlur(
            source: image.storage, output: output, weights: weights, radii: radii, width: width,
            channels: channels, chunks: chunks)
        let gaps = blur.inPlace ? [] : Self.gaps(between: chunks, height: height)
        let jobs = chunks.indices.map(ChunkBlur.Job.blur) + gaps.map(ChunkBlur.Job.copy)
        let rows = min((chunks.map(\.count).max() ?? 0) + 2 * support, height)
        let scratchBytes = ChunkScratch.bytes(radii: radii, rowBytes: rowBytes)
        let workingMemory =
            ParallelBands.workerCount(bands: jobs.count) * scratchBytes
            + (blur.inPlace ? haloBytes : output.count)
        try await WorkingMemoryBudget.withReservationInCurrentRun(of: workingMemory) {
            let halo =
                blur.inPlace
                ? try await BlurHalo(of: output, chunks: chunks, support: support, height: height, rowBytes: rowBytes)
                : nil
            try await ParallelBands.run(
                count: jobs.count, bandSize: 1, scratch: { ChunkScratch(radii: radii, rowBytes: rowBytes, rows: rows) }
            ) { indices, scratch in
                for index in indices { blur.run(jobs[index], halo: halo, scratch: scratch) }
            }
        }
        return Image(width: width, height: height, channels: channels, storage: output)
    }

    /// The rows with a weight, in chunks: each run of such rows cut evenly into pieces of at
    /// least a quarter of a worker's share of them all (so that workers taking chunks as they
    /// come finish together) and of `8 · support` rows (so the rows read around a chunk add at
    /// most a quarter), or of 16M samples when that is less than the quarter share; a shorter run
    /// is one chunk.
    static func chunks(weights: [Int32], support: Int, rowBytes: Int, workers: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for (y, weight) in weights.enumerated() {
            if weight > 0, start == nil { start = y }
            if weight == 0, let first = start {
                runs.append(first..<y)
                start = nil
            }
        }
        if let first = start { runs.append(first..<weights.count) }
        let total = runs.reduce(0) { $0 + $1.count }
        let target = max(min(total / (4 * max(workers, 1)), (1 << 24) / max(rowBytes, 1)), 8 * support, 32)
        return runs.flatMap { run -> [Range<Int>] in
            let pieces = max(1, run.count / target)
            return (0..<pieces).map { piece in
                (run.lowerBound + run.count * piece / pieces)..<(run.lowerBound + run.count * (piece + 1) / pieces)
            }
        }
    }

    /// The row ranges of `0..<height` outside every chunk (sorted, disjoint).
    private static func gaps(between chunks: [Range<Int>], height: Int) -> [Range<Int>] {
        var gaps: [Range<Int>] = []
        var next = 0
        for chunk in chunks {
            if chunk.lowerBound > next { gaps.append(next..<chunk.lowerBound) }
            next = chunk.upperBound
        }
        if next < height { gaps.append(next..<height) }
        return gaps
    }

    /// The work on one chunk of rows, shared by the workers.
    private struct ChunkBlur: Sendable {
        /// One worker's task: blur the chunk of that index, or copy unblurred rows (not in place).
        enum Job: Sendable {
            case blur(Int)
            case copy(Range<Int>)
        }

        let source: PixelStorage<UInt8>
        let output: PixelStorage<UInt8>
        /// 0...256 per row.
        let weights: [Int32]
        /// The radius of each box pass.
        let radii: [Int]
        let width: Int
        let channels: Int
        let chunks: [Range<Int>]

        /// Whether the result overwrites the source.
        var inPlace: Bool { source === output }

        func run(_ job: Job, halo: BlurHalo?, scratch: ChunkScratch) {
            let rowBytes = width * channels
            switch job {
            case .copy(let rows):
                (output.base + rows.lowerBound * rowBytes)
                    .update(from: source.base + rows.lowerBound * rowBytes, count: rows.count * rowBytes)
            case .blur(let index):
                blur(index, halo: halo, scratch: scratch)
            }
        }

        /// Blurs and mixes chunk `index`, reading the rows around it from `halo` when in place.
        private func blur(_ index: Int, halo: BlurHalo?, scratch: ChunkScratch) {
            let chunk = chunks[index]
            let rowBytes = width * channels
            let support = radii.reduce(0, +)
            let top = max(chunk.lowerBound - support, 0)
            let bottom = min(chunk.upperBound + support, weights.count)
            let (rowA, rowB) = (scratch.rowA, scratch.rowB)
            scratch.cascade.filter(rows: bottom - top) { p, across in
                let y = top + p
                let input = halo?.row(y, outsideChunk: index) ?? UnsafePointer(source.base + y * rowBytes)
                tg_blur_widen(input, rowA, rowBytes)
                BoxFilter.row(rowA, rowB, count: width, channels: channels, radius: radii[0])
                BoxFilter.row(rowB, rowA, count: width, channels: channels, radius: radii[1])
                BoxFilter.row(rowA, rowB, count: width, channels: channels, radius: radii[2])
                tg_blur_narrow(rowB, across, rowBytes)
            } emit: { q, blurred in
                let y = top + q
                guard chunk.contains(y) else { return }
                let weight = weights[y]
                let target = output.base + y * rowBytes
                var original = UnsafePointer(source.base + y * rowBytes)
                if weight == 0 {
                    if !inPlace { target.update(from: original, count: rowBytes) }
                    return
                }
                if inPlace {
                    // Mix from a copy, so the loop vectorizes.
                    scratch.original.update(from: original, count: rowBytes)
                    original = UnsafePointer(scratch.original)
                }
                // round(original · (256 − weight) + blurred · weight), blurred in 8.8 fixed point.
                tg_blur_mix(original, blurred, weight, target, rowBytes)
            }
        }
    }

    /// One worker's buffers, reused for every chunk it blurs.
    private final class ChunkScratch {
        let cascade: ColumnBoxCascade
        let rowA: UnsafeMutablePointer<Int32>
        let rowB: UnsafeMutablePointer<Int32>
        let original: UnsafeMutablePointer<UInt8>

        /// The bytes of one worker's scratch.
        static func bytes(radii: [Int], rowBytes: Int) -> Int {
            ColumnBoxCascade.bytes(radii: radii, width: rowBytes) + (rowBytes + 1) * 9
        }

        init(radii: [Int], rowBytes: Int, rows: Int) {
            cascade = ColumnBoxCascade(radii: radii, width: rowBytes, rows: rows)
            // One sample beyond the row for `BoxFilter.row`.
            rowA = .allocate(capacity: rowBytes + 1)
            rowB = .allocate(capacity: rowBytes + 1)
            rowA[rowBytes] = 0
            rowB[rowBytes] = 0
            original = .allocate(capacity: rowBytes)
        }

        deinit {
            rowA.deallocate()
            rowB.deallocate()
            original.deallocate()
        }
    }
}
