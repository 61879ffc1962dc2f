import CImageShims
import Foundation

/// JPEG through libjpeg-turbo (see `Sources/CImageShims/JPEGShim.c`). Blocking.
enum JPEGCodec {
    /// Decodes to RGB (grayscale expanded), upright per the EXIF orientation.
    static func decode(_ data: Data, maxPixels: Int) throws -> Image {
        let stored = try data.withUnsafeBytes { raw -> Image in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            var info = tg_jpeg_info()
            let (ok, message) = ImageCodec.withMessageBuffer { tg_jpeg_read_header(base, raw.count, &info, $0) }
            guard ok != 0 else { throw ImageError.decodeFailed(format: .jpeg, message: message) }
            guard info.is_cmyk == 0 else { throw ImageError.cmykNotSupported }
            let width = Int(info.width), height = Int(info.height)
            try ImageCodec.checkLimit(width: width, height: height, limit: maxPixels)
            let storage = PixelStorage<UInt8>(count: width * height * 3)
            let (decoded, failure) = ImageCodec.withMessageBuffer {
                tg_jpeg_decode(base, raw.count, storage.base, info.width, info.height, 3, $0)
            }
            guard decoded != 0 else { throw ImageError.decodeFailed(format: .jpeg, message: failure) }
            return Image(width: width, height: height, channels: 3, storage: storage)
        }
        return EXIFOrientation(jpeg: data).apply(to: stored)
    }

    /// What decoding `data` holds in DCT coefficients (`tg_jpeg_info.coefficient_bytes`); 0 for
    /// a baseline JPEG, a broken header, or an image over `maxPixels`.
    static func coefficientBytes(_ data: Data, maxPixels: Int) -> Int {
        data.withUnsafeBytes { raw in
            var info = tg_jpeg_info()
            let (ok, _) = ImageCodec.withMessageBuffer {
                tg_jpeg_read_header(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &info, $0)
            }
            guard ok != 0, Int(info.width) * Int(info.height) <= maxPixels else { return 0 }
            return Int(info.coefficient_bytes)
        }
    }

    /// Encodes as baseline 4:2:0 JPEG; alpha is dropped.
    static func encode(_ image: Image, quality: Int) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let (ok, message) = ImageCodec.withMessageBuffer {
            tg_jpeg_encode(image.storage.base, Int32(image.width), Int32(image.height),
                           Int32(image.channels), Int32(quality), &output, &size, $0)
        }
        guard ok != 0 else { throw ImageError.encodeFailed(format: .jpeg, message: message) }
        return ImageCodec.takeBuffer(output, count: size)
    }
}
