import TaskGraphCore

/// Lays out images in a grid, each scaled to fit its cell, with a caption under each: the
/// picture that shows a whole run's work at a glance.
struct ContactSheetLayout: Sendable {
    /// Images per row; 0 picks a near-square grid.
    var columns: Int
    /// Width of each cell's picture area in pixels (height is three quarters of it).
    var cellWidth: Int
    /// Space around and between cells.
    var padding: Int
    /// Whether to draw each image's caption.
    var captions: Bool
    /// Background and caption colours.
    var background: (UInt8, UInt8, UInt8) = (24, 24, 27)
    var ink: (UInt8, UInt8, UInt8) = (236, 236, 236)

    /// The size of the sheet of `count` images.
    func size(for count: Int) -> (width: Int, height: Int) {
        let count = max(count, 1)
        let columns = self.columns > 0 ? self.columns : Int(Double(count).squareRoot().rounded(.up))
        let rows = (count + columns - 1) / columns
        let captionHeight = captions ? CaptionFont.glyphHeight + padding / 2 : 0
        return (
            columns * cellWidth + (columns + 1) * padding,
            rows * (cellWidth * 3 / 4 + captionHeight) + (rows + 1) * padding
        )
    }

    /// The sheet for `entries` (caption, image), in order. The pixel work runs on blocking
    /// threads (`BlockingIO`), off the cooperative pool, where its CPU time is measured for the
    /// operation (`StoragePolicy` weighs it).
    func render(_ entries: [(caption: String, image: Image)]) async throws -> Image {
        let count = max(entries.count, 1)
        let columns = self.columns > 0 ? self.columns : Int(Double(count).squareRoot().rounded(.up))
        let cellHeight = cellWidth * 3 / 4
        let captionHeight = captions ? CaptionFont.glyphHeight + padding / 2 : 0
        let (width, height) = size(for: entries.count)
        let storage = PixelStorage<UInt8>(count: width * height * 3)
        let background = background
        try await BlockingIO.run {
            for pixel in 0..<width {
                storage.base[pixel * 3] = background.0
                storage.base[pixel * 3 + 1] = background.1
                storage.base[pixel * 3 + 2] = background.2
            }
            for row in 1..<height {
                (storage.base + row * width * 3).update(from: storage.base, count: width * 3)
            }
        }
        for (index, entry) in entries.enumerated() {
            try Task.checkCancellation()
            let cellX = padding + (index % columns) * (cellWidth + padding)
            let cellY = padding + (index / columns) * (cellHeight + captionHeight + padding)
            let scale = min(
                Double(cellWidth) / Double(entry.image.width), Double(cellHeight) / Double(entry.image.height))
            let thumbnail = try await ResizeKernel.resized(
                entry.image,
                to: (
                    max(1, Int((Double(entry.image.width) * scale).rounded())),
                    max(1, Int((Double(entry.image.height) * scale).rounded()))
                ))
            let caption = entry.caption
            try await BlockingIO.run { [self] in
                blit(
                    thumbnail, x: cellX + (cellWidth - thumbnail.width) / 2,
                    y: cellY + (cellHeight - thumbnail.height) / 2, into: storage, width: width)
                if captions {
                    let caption = CaptionFont.fitting(caption, in: cellWidth)
                    CaptionFont.draw(
                        caption, x: cellX + (cellWidth - CaptionFont.width(of: caption)) / 2,
                        y: cellY + cellHeight + padding / 4, color: ink,
                        into: storage.base, width: width, height: height, channels: 3)
                }
            }
        }
        return Image(width: width, height: height, channels: 3, storage: storage)
    }

    /// Copies `image` (RGB or RGBA, alpha blended over the background) into the sheet.
    private func blit(_ image: Image, x: Int, y: Int, into storage: PixelStorage<UInt8>, width: Int) {
        let source = image.storage.base
        if image.channels == 3 { // opaque: row by row, as the blend gives (alpha 255)
            for row in 0..<image.height {
                (storage.base + ((y + row) * width + x) * 3).update(
                    from: source + row * image.width * 3, count: image.width * 3)
            }
            return
        }
        for row in 0..<image.height {
            for column in 0..<image.width {
                let from = (row * image.width + column) * image.channels
                let to = ((y + row) * width + x + column) * 3
                let alpha = image.channels == 4 ? UInt16(source[from + 3]) : 255
                for channel in 0..<3 {
                    let under = UInt16(storage.base[to + channel])
                    let over = UInt16(source[from + channel])
                    storage.base[to + channel] = UInt8((over * alpha + under * (255 - alpha) + 127) / 255)
                }
            }
        }
    }
}
