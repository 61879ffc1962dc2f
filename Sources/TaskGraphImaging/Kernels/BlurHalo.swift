import TaskGraphCore

/// The rows a blur chunk reads beyond its own, saved before an in-place blur overwrites them.
///
/// `GaussianBlur` blurs chunks of rows in any order, each reading `support` rows above and below
/// itself. Working in place, another chunk may already have overwritten those rows; so for every
/// chunk they are copied here first, and chunks read rows outside their own range from this copy.
struct BlurHalo: Sendable {
    private let storage: PixelStorage<UInt8>
    private let chunks: [Range<Int>]
    private let support: Int
    private let rowBytes: Int

    /// The bytes the copy of the rows around `chunks` takes.
    static func bytes(chunks: Int, support: Int, rowBytes: Int) -> Int {
        chunks * 2 * support * rowBytes
    }

    /// Copies, for every chunk of `chunks`, the `support` rows above and below it (those inside
    /// the image) out of `source`, an image of `height` rows of `rowBytes` bytes. The copying runs
    /// on `BlockingIO` threads.
    /// - Throws: `CancellationError`.
    init(of source: PixelStorage<UInt8>, chunks: [Range<Int>], support: Int, height: Int, rowBytes: Int) async throws {
        let storage = PixelStorage<UInt8>(
            count: max(Self.bytes(chunks: chunks.count, support: support, rowBytes: rowBytes), 1))
        try await ParallelBands.run(count: chunks.count, bandSize: 1) { indices in
            for index in indices {
                let chunk = chunks[index]
                let start = storage.base + index * 2 * support * rowBytes
                let above = max(chunk.lowerBound - support, 0)..<chunk.lowerBound
                let below = chunk.upperBound..<min(chunk.upperBound + support, height)
                (start + (support - above.count) * rowBytes)
                    .update(from: source.base + above.lowerBound * rowBytes, count: above.count * rowBytes)
                (start + support * rowBytes)
                    .update(from: source.base + below.lowerBound * rowBytes, count: below.count * rowBytes)
            }
        }
        self.storage = storage
        self.chunks = chunks
        self.support = support
        self.rowBytes = rowBytes
    }

    /// The saved copy of row `y` when it lies outside chunk `index` (within `support` rows of it),
    /// else nil: a chunk's own rows are read from the image itself.
    func row(_ y: Int, outsideChunk index: Int) -> UnsafePointer<UInt8>? {
        let chunk = chunks[index]
        let slot: Int
        if y < chunk.lowerBound {
            slot = support - (chunk.lowerBound - y)
        } else if y >= chunk.upperBound {
            slot = support + (y - chunk.upperBound)
        } else {
            return nil
        }
        return UnsafePointer(storage.base + (index * 2 * support + slot) * rowBytes)
    }
}
