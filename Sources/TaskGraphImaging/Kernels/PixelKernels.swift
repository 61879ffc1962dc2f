import TaskGraphCore

/// Small per-pixel kernels: grayscale and crop.
enum PixelKernels {
    /// Luma on stored sRGB values, `(19595·R + 38470·G + 7471·B + 2¹⁵) >> 16` (ITU-R BT.601, as
    /// Pillow's `convert("L")`), written to all three color channels; alpha untouched. In place
    /// when the caller hands over the only reference to `image` (each pixel is read before it is
    /// written).
    static func grayscale(_ image: consuming Image) async throws -> Image {
        let output = image.storageForResult()
        let (source, channels, rowBytes) = (image.storage, image.channels, image.rowStride)
        let (width, height, bandSize) = (image.width, image.height, ParallelBands.bandSize(itemSize: rowBytes))
        let secondImage = output === source ? 0 : output.count
        try await WorkingMemoryBudget.withReservationInCurrentRun(of: secondImage) {
            try await ParallelBands.run(count: height, bandSize: bandSize) { rows in
                let input = source.base
                let out = output.base
                for index in stride(from: rows.lowerBound * rowBytes, to: rows.upperBound * rowBytes, by: channels) {
                    let luma =
                        (19595 &* UInt32(input[index]) &+ 38470 &* UInt32(input[index + 1])
                            &+ 7471 &* UInt32(input[index + 2]) &+ 32768) >> 16
                    let value = UInt8(truncatingIfNeeded: luma)
                    out[index] = value
                    out[index + 1] = value
                    out[index + 2] = value
                    if channels == 4 { out[index + 3] = input[index + 3] }
                }
            }
        }
        return Image(width: width, height: height, channels: channels, storage: output)
    }

    /// The `width × height` rectangle whose top-left pixel is (`x`, `y`).
    /// - Throws: `ImageError.cropOutside` when the rectangle leaves the image.
    static func crop(_ image: Image, x: Int, y: Int, width: Int, height: Int) throws -> Image {
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= image.width, y + height <= image.height else {
            throw ImageError.cropOutside(
                x: x, y: y, width: width, height: height, imageWidth: image.width, imageHeight: image.height)
        }
        let channels = image.channels
        let output = PixelStorage<UInt8>(count: width * height * channels)
        for row in 0..<height {
            let from = image.storage.base + ((y + row) * image.width + x) * channels
            (output.base + row * width * channels).update(from: from, count: width * channels)
        }
        return Image(width: width, height: height, channels: channels, storage: output)
    }
}
