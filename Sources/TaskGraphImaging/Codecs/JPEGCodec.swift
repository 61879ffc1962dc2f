import CImageShims
import Foundation
import TaskGraphCore

/// JPEG through libjpeg-turbo (see `Sources/CImageShims/JPEGShim.c`). Blocking.
enum JPEGCodec {
    /// Decodes to RGB (grayscale expanded), upright per the EXIF orientation; each side divided
    /// (rounding up) by `scaleDenominator` (1, 2, 4 or 8) in the DCT domain, which costs a
    /// fraction of a full decode. `maxPixels` applies to the full size.
    static func decode(_ data: Data, maxPixels: Int, scaleDenominator: Int = 1) throws -> Image {
        let stored = try data.withUnsafeBytes { raw -> Image in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            var info = tg_jpeg_info()
            let (ok, message) = ImageCodec.withMessageBuffer { tg_jpeg_read_header(base, raw.count, &info, $0) }
            guard ok != 0 else { throw ImageError.decodeFailed(format: .jpeg, message: message) }
            guard info.is_cmyk == 0 else { throw ImageError.cmykNotSupported }
            try ImageCodec.checkLimit(width: Int(info.width), height: Int(info.height), limit: maxPixels)
            let width = Self.scaled(Int(info.width), by: scaleDenominator)
            let height = Self.scaled(Int(info.height), by: scaleDenominator)
            let storage = PixelStorage<UInt8>(count: width * height * 3)
            let (decoded, failure) = ImageCodec.withMessageBuffer {
                tg_jpeg_decode(
                    base, raw.count, storage.base, Int32(width), Int32(height), 3, Int32(scaleDenominator), $0)
            }
            guard decoded != 0 else { throw ImageError.decodeFailed(format: .jpeg, message: failure) }
            return Image(width: width, height: height, channels: 3, storage: storage)
        }
        return EXIFOrientation(jpeg: data).apply(to: stored)
    }

    /// The upright size of the JPEG in `data` (sides swapped when its EXIF orientation turns
    /// it by a quarter), or nil when its header does not read.
    static func uprightSize(_ data: Data) -> (width: Int, height: Int)? {
        let info = data.withUnsafeBytes { raw -> tg_jpeg_info? in
            var info = tg_jpeg_info()
            let (ok, _) = ImageCodec.withMessageBuffer {
                tg_jpeg_read_header(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &info, $0)
            }
            return ok != 0 ? info : nil
        }
        guard let info else { return nil }
        let (width, height) = (Int(info.width), Int(info.height))
        return EXIFOrientation(jpeg: data).value >= 5 ? (height, width) : (width, height)
    }

    /// The largest DCT-domain scale denominator (8, 4, 2, else 1) at which an image of `size`
    /// still has sides of at least `target`'s.
    static func scaleDenominator(from size: (width: Int, height: Int), atLeast target: (width: Int, height: Int)) -> Int
    {
        [8, 4, 2].first { scaled(size.width, by: $0) >= target.width && scaled(size.height, by: $0) >= target.height }
            ?? 1
    }

    /// A side of `side` pixels decoded at `1 / denominator`: libjpeg rounds up.
    static func scaled(_ side: Int, by denominator: Int) -> Int {
        (side + denominator - 1) / denominator
    }

    /// What decoding `data` holds beyond the image it makes: 0 for a baseline JPEG, a broken
    /// header, or an image over `maxPixels`. A progressive JPEG's DCT coefficients
    /// (`tg_jpeg_info.coefficient_bytes`) are all held when the first row of pixels is written
    /// and given back as rows are written, so the decode holds at most about the larger of them
    /// and the image: the excess of the coefficients over the image, plus what is released only
    /// in steps (`releaseSlack`), never more than the coefficients.
    static func workingMemory(_ data: Data, maxPixels: Int) -> Int {
        data.withUnsafeBytes { raw in
            var info = tg_jpeg_info()
            let (ok, _) = ImageCodec.withMessageBuffer {
                tg_jpeg_read_header(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &info, $0)
            }
            let pixels = Int(info.width) * Int(info.height)
            guard ok != 0, pixels <= maxPixels else { return 0 }
            let coefficients = Int(info.coefficient_bytes)
            return min(coefficients, max(0, coefficients - pixels * 3) + releaseSlack)
        }
    }

    /// Coefficient memory that may be held beyond the larger of the coefficients and the image:
    /// per component, the partial release steps at the output row and at the array's start
    /// (`TG_RELEASE_STEP` in `JPEGRelease.c`, 256 KiB).
    static let releaseSlack = 3 * 2 * (256 << 10)

    /// Encodes as baseline 4:2:0 JPEG; alpha is dropped.
    static func encode(_ image: Image, quality: Int) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let (ok, message) = ImageCodec.withMessageBuffer {
            tg_jpeg_encode(
                image.storage.base, Int32(image.width), Int32(image.height),
                Int32(image.channels), Int32(quality), &output, &size, $0)
        }
        guard ok != 0 else { throw ImageError.encodeFailed(format: .jpeg, message: message) }
        return ImageCodec.takeBuffer(output, count: size)
    }
}
