import CImageShims
import TaskGraphCore

/// Resampling in two separable passes (horizontal, then vertical) with 2.14 fixed-point weights
/// and an 8.8 fixed-point intermediate plane:
/// area averaging when shrinking (each output pixel is the mean of the source area it covers),
/// linear interpolation when enlarging. The passes' loops are `tg_resize_across` and
/// `tg_resize_down` (C, so that they have an AVX2 build and take a pixel as one vector).
enum ResizeKernel {
    /// For every output index, `count` source indices and their weights (summing to 2¹⁴).
    struct Taps: Sendable {
        /// Taps per output index (unused ones have weight 0).
        let count: Int
        /// Source indices, `count` per output index.
        let indices: [Int32]
        /// Weights, `count` per output index.
        let weights: [Int32]
    }

    /// The taps mapping `source` samples onto `target`.
    static func taps(from source: Int, to target: Int) -> Taps {
        let scale = Double(source) / Double(target)
        var perOutput: [[(Int, Double)]] = []
        for i in 0..<target {
            if target < source {
                let low = Double(i) * scale
                let high = Double(i + 1) * scale
                perOutput.append(
                    (Int(low.rounded(.down))..<min(Int(high.rounded(.up)), source)).map { j in
                        (j, min(high, Double(j + 1)) - max(low, Double(j)))
                    })
            } else {
                let center = (Double(i) + 0.5) * scale - 0.5
                let j = Int(center.rounded(.down))
                let t = center - Double(j)
                perOutput.append([(min(max(j, 0), source - 1), 1 - t), (min(max(j + 1, 0), source - 1), t)])
            }
        }
        let count = perOutput.map(\.count).max() ?? 1
        var indices: [Int32] = []
        var weights: [Int32] = []
        for taps in perOutput {
            let total = taps.reduce(0) { $0 + $1.1 }
            var fixed = taps.map { Int32(($0.1 / total * 16384).rounded()) }
            let largest = fixed.indices.max { fixed[$0] < fixed[$1] }!
            fixed[largest] += 16384 - fixed.reduce(0, +)
            indices += taps.map { Int32($0.0) } + Array(repeating: Int32(taps[0].0), count: count - taps.count)
            weights += fixed + Array(repeating: 0, count: count - taps.count)
        }
        return Taps(count: count, indices: indices, weights: weights)
    }

    /// `image` resampled to `size`; `image` itself when it has that size.
    static func resized(_ image: Image, to size: (width: Int, height: Int)) async throws -> Image {
        guard size != (image.width, image.height) else { return image }
        return try await apply(to: image, width: size.width, height: size.height)
    }

    /// `image` resampled to `width × height`.
    static func apply(to image: Image, width: Int, height: Int) async throws -> Image {
        let channels = image.channels
        let across = taps(from: image.width, to: width)
        let down = taps(from: image.height, to: height)
        let offsets = across.indices.map { $0 * Int32(channels) }
        let source = image.storage
        let middle = PixelStorage<UInt16>(count: width * image.height * channels)
        let rowBytes = width * channels
        let (sourceBytes, sourceRowBytes) = (image.rowStride, image.width * channels)
        try await ParallelBands.run(count: image.height, bandSize: ParallelBands.bandSize(itemSize: sourceBytes)) {
            rows in
            tg_resize_across(
                source.base + rows.lowerBound * sourceBytes, sourceBytes, sourceRowBytes,
                middle.base + rows.lowerBound * rowBytes, width, rows.count, Int32(channels), Int32(across.count),
                offsets, across.weights)
        }
        let output = PixelStorage<UInt8>(count: height * rowBytes)
        try await ParallelBands.run(count: height, bandSize: ParallelBands.bandSize(itemSize: rowBytes * down.count)) {
            rows in
            let sums = UnsafeMutablePointer<Int32>.allocate(capacity: rowBytes)
            defer { sums.deallocate() }
            down.indices.withUnsafeBufferPointer { indices in
                down.weights.withUnsafeBufferPointer { weights in
                    for y in rows {
                        let first = y * down.count
                        tg_resize_down(
                            middle.base, rowBytes, Int32(down.count), indices.baseAddress! + first,
                            weights.baseAddress! + first, sums, output.base + y * rowBytes)
                    }
                }
            }
        }
        return Image(width: width, height: height, channels: channels, storage: output)
    }

    /// The size `width × height` becomes with the requested bounds, aspect ratio kept: both
    /// `width` and `height` given fit inside that box; one given scales the other; `maxSide`
    /// caps the longer side (never enlarging). Each side is at least 1.
    static func targetSize(
        width: Int, height: Int, requestedWidth: Int?, requestedHeight: Int?, maxSide: Int?
    ) -> (width: Int, height: Int) {
        var scale: Double
        switch (requestedWidth, requestedHeight) {
        case (let w?, let h?): scale = min(Double(w) / Double(width), Double(h) / Double(height))
        case (let w?, nil): scale = Double(w) / Double(width)
        case (nil, let h?): scale = Double(h) / Double(height)
        case (nil, nil): scale = 1
        }
        if let maxSide { scale = min(scale, Double(maxSide) / Double(max(width, height))) }
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}
