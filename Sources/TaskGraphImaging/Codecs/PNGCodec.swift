import CImageShims
import Foundation
import TaskGraphCore

/// PNG through libpng's simplified API (see `Sources/CImageShims/PNGShim.c`). Blocking.
enum PNGCodec {
    /// Decodes any PNG (gray, palette, 8/16-bit, alpha) to 8-bit RGB, or RGBA when it has alpha.
    static func decode(_ data: Data, maxPixels: Int) throws -> Image {
        try data.withUnsafeBytes { raw -> Image in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            var info = tg_png_info()
            let (ok, message) = ImageCodec.withMessageBuffer { tg_png_read_header(base, raw.count, &info, $0) }
            guard ok != 0 else { throw ImageError.decodeFailed(format: .png, message: message) }
            let width = Int(info.width)
            let height = Int(info.height)
            try ImageCodec.checkLimit(width: width, height: height, limit: maxPixels)
            let channels = info.has_alpha == 0 ? 3 : 4
            let storage = PixelStorage<UInt8>(count: width * height * channels)
            let (decoded, failure) = ImageCodec.withMessageBuffer {
                tg_png_decode(base, raw.count, storage.base, Int32(channels), $0)
            }
            guard decoded != 0 else { throw ImageError.decodeFailed(format: .png, message: failure) }
            return Image(width: width, height: height, channels: channels, storage: storage)
        }
    }

    /// Encodes as an 8-bit RGB or RGBA PNG.
    static func encode(_ image: Image) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let (ok, message) = ImageCodec.withMessageBuffer {
            tg_png_encode(
                image.storage.base, Int32(image.width), Int32(image.height),
                Int32(image.channels), &output, &size, $0)
        }
        guard ok != 0 else { throw ImageError.encodeFailed(format: .png, message: message) }
        return ImageCodec.takeBuffer(output, count: size)
    }
}
