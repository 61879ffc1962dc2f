import CImageShims
import Foundation
import TaskGraphCore

/// Decodes and encodes JPEG and PNG. The async entry points run the codec through `BlockingIO`
/// (the current run's threads, or a thread of its own outside a run), never on the cooperative
/// pool.
public enum ImageCodec {
    /// The default `max_pixels`: 100 megapixels.
    public static let defaultMaxPixels = 100_000_000

    /// The default JPEG quality.
    public static let defaultQuality = 90

    /// Decodes `data` (JPEG or PNG, sniffed from its signature), applying a JPEG's EXIF orientation.
    /// Inside a run, a progressive JPEG waits, if need be, for the run's working-memory budget to
    /// admit the memory its decoder holds.
    /// - Parameter maxPixels: larger images are refused before any pixel memory is allocated.
    /// - Throws: `ImageError` with the codec's own message, or `CancellationError`.
    public static func decode(_ data: Data, maxPixels: Int = defaultMaxPixels) async throws -> Image {
        try await decode(data, maxPixels: maxPixels, scaleDenominator: 1)
    }

    /// Decodes `data` for a result of `size(width, height)` pixels, given the full upright size:
    /// a JPEG at the smallest scale libjpeg-turbo makes in the DCT domain (1/8, 1/4 or 1/2 of
    /// each side, at a fraction of the cost of a full decode) whose sides are still at least
    /// those of the result; anything else at full size.
    /// - Returns: the image and the result's size, for the caller to resample it to.
    /// - Throws: as `decode(_:maxPixels:)`; `maxPixels` applies to the full size.
    static func decode(
        _ data: Data, maxPixels: Int, forSize size: @escaping @Sendable (Int, Int) -> (width: Int, height: Int)
    ) async throws -> (image: Image, size: (width: Int, height: Int)) {
        let plan = try await BlockingIO.run { () -> (denominator: Int, size: (width: Int, height: Int))? in
            guard ImageFormat.sniff(data) == .jpeg, let full = JPEGCodec.uprightSize(data) else { return nil }
            let target = size(full.width, full.height)
            return (JPEGCodec.scaleDenominator(from: full, atLeast: target), target)
        }
        let image = try await decode(data, maxPixels: maxPixels, scaleDenominator: plan?.denominator ?? 1)
        return (image, plan?.size ?? size(image.width, image.height))
    }

    /// `decode`, each side of a JPEG divided by `scaleDenominator` in the DCT domain.
    private static func decode(_ data: Data, maxPixels: Int, scaleDenominator: Int) async throws -> Image {
        let workingMemory = try await BlockingIO.run { decoderWorkingMemory(data, maxPixels: maxPixels) }
        return try await WorkingMemoryBudget.withReservationInCurrentRun(of: workingMemory) {
            try await BlockingIO.run { try decodeNow(data, maxPixels: maxPixels, scaleDenominator: scaleDenominator) }
        }
    }

    /// The memory the decoder of `data` holds beyond the image, from its header; 0 when that is
    /// small, or when the header is broken or too large (decoding then reports why).
    static func decoderWorkingMemory(_ data: Data, maxPixels: Int) -> Int {
        guard ImageFormat.sniff(data) == .jpeg else { return 0 }
        return JPEGCodec.workingMemory(data, maxPixels: maxPixels)
    }

    /// Encodes `image` as `format`; `quality` (1...100) applies to JPEG.
    /// - Throws: `ImageError.encodeFailed`, or `CancellationError`.
    public static func encode(_ image: Image, as format: ImageFormat, quality: Int = defaultQuality) async throws
        -> Data
    {
        try await BlockingIO.run { try encodeNow(image, as: format, quality: quality) }
    }

    /// `decode`, on the calling thread (blocking); `scaleDenominator` applies to JPEG.
    static func decodeNow(_ data: Data, maxPixels: Int, scaleDenominator: Int = 1) throws -> Image {
        switch ImageFormat.sniff(data) {
        case .jpeg: try JPEGCodec.decode(data, maxPixels: maxPixels, scaleDenominator: scaleDenominator)
        case .png: try PNGCodec.decode(data, maxPixels: maxPixels)
        case nil: throw ImageError.unknownFormat(byteCount: data.count)
        }
    }

    /// `encode`, on the calling thread (blocking).
    static func encodeNow(_ image: Image, as format: ImageFormat, quality: Int) throws -> Data {
        switch format {
        case .jpeg: try JPEGCodec.encode(image, quality: quality)
        case .png: try PNGCodec.encode(image)
        }
    }

    /// Throws `tooManyPixels` when `width × height` exceeds `limit`.
    static func checkLimit(width: Int, height: Int, limit: Int) throws {
        if width * height > limit { throw ImageError.tooManyPixels(width: width, height: height, limit: limit) }
    }

    /// Throws `ImageError.resultTooLarge` when a result of `width` × `height` would have more
    /// pixels than `limit`: called before the result is allocated.
    static func checkResultLimit(width: Int, height: Int, limit: Int) throws {
        if width * height > limit { throw ImageError.resultTooLarge(width: width, height: height, limit: limit) }
    }

    /// Calls `body` with a message buffer of `TG_MESSAGE_SIZE` bytes and returns its text too.
    static func withMessageBuffer<T>(_ body: (UnsafeMutablePointer<CChar>) -> T) -> (T, String) {
        var buffer = [CChar](repeating: 0, count: Int(TG_MESSAGE_SIZE))
        let result = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (result, message)
    }

    /// Wraps a malloc'd encoder buffer in `Data` without copying it; the `Data` frees it.
    static func takeBuffer(_ buffer: UnsafeMutablePointer<UInt8>?, count: Int) -> Data {
        guard let buffer else { return Data() }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .custom { bytes, _ in tg_free(bytes) })
    }
}
