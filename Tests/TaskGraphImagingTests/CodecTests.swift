import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// Decoding and encoding through libjpeg-turbo and libpng.
    @Suite struct CodecTests {
        @Test func decodesJPEGVariants() async throws {
            let progressive = try await ImageCodec.decode(try fixture("progressive.jpg"))
            #expect(progressive.summary == "24×16 RGB")
            #expect(close(progressive.pixel(x: 12, y: 8), [200, 100, 50], tolerance: 2))
            let subsampled = try await ImageCodec.decode(try fixture("subsampling-422.jpg"))
            #expect(close(subsampled.pixel(x: 23, y: 15), [200, 100, 50], tolerance: 2))
            let gray = try await ImageCodec.decode(try fixture("gray.jpg"))
            #expect(gray.channels == 3)
            #expect(gray.pixel(x: 5, y: 5) == [77, 77, 77])
        }

        @Test func progressiveDecodeMatchesItsBaselineTwin() async throws {
            // The same coefficients (jpegtran), stored in one scan and in ten: the progressive
            // decode gives its coefficient rows back as it writes pixels, and must not lose any.
            let progressive = try await ImageCodec.decode(try fixture("gradient-progressive.jpg"))
            let baseline = try await ImageCodec.decode(try fixture("gradient-baseline.jpg"))
            #expect(progressive.summary == "2048×1536 RGB")
            #expect(progressive.pixel(x: 2000, y: 1500) == [250, 250, 250])
            #expect(progressive == baseline)
        }

        @Test func refusesCMYK() async throws {
            let data = try fixture("cmyk.jpg")
            #expect(
                await errorText { _ = try await ImageCodec.decode(data) }
                    == "cannot decode JPEG: CMYK images are not supported; convert to RGB first")
        }

        @Test func decodesPNGVariants() async throws {
            let gray16 = try await ImageCodec.decode(try fixture("gray16.png"))
            #expect(gray16.summary == "3×2 RGB")
            #expect(gray16.pixel(x: 2, y: 1) == [128, 128, 128])
            let palette = try await ImageCodec.decode(try fixture("palette-transparent.png"))
            #expect(palette.channels == 4)
            #expect(palette.pixel(x: 0, y: 0)[3] == 0)
            #expect(palette.pixel(x: 1, y: 0) == [10, 20, 30, 255])
            let rgba = try await ImageCodec.decode(try fixture("rgba.png"))
            #expect(rgba.pixel(x: 1, y: 1) == [1, 2, 3, 128])
            let grayAlpha = try await ImageCodec.decode(try fixture("gray-alpha.png"))
            #expect(grayAlpha.pixel(x: 0, y: 1) == [90, 90, 90, 200])
        }

        @Test func pngRoundTripIsExact() async throws {
            let pixels = (0..<(5 * 3 * 4)).map { UInt8(truncatingIfNeeded: $0 * 37) }
            for channels in [3, 4] {
                let image = Image(width: 5, height: 3, channels: channels, pixels: Array(pixels.prefix(15 * channels)))
                let data = try await ImageCodec.encode(image, as: .png)
                #expect(ImageFormat.sniff(data) == .png)
                #expect(try await ImageCodec.decode(data) == image)
            }
        }

        @Test func jpegRoundTripKeepsThePicture() async throws {
            let photo = try await ImageCodec.decode(try fixture("sunset-320.jpg"))
            #expect(photo.summary == "320×213 RGB")
            let data = try await ImageCodec.encode(photo, as: .jpeg, quality: 95)
            let again = try await ImageCodec.decode(data)
            #expect(again.summary == photo.summary)
            #expect(psnr(again.pixels, photo.pixels) > 35)
            let small = try await ImageCodec.encode(photo, as: .jpeg, quality: 20)
            #expect(small.count < data.count / 2)
        }

        @Test(arguments: 1...8) func appliesEXIFOrientation(_ orientation: Int) async throws {
            let data = try fixture("orientation-\(orientation).jpg")
            #expect(EXIFOrientation(jpeg: data).value == orientation)
            let image = try await ImageCodec.decode(data)
            #expect(image.summary == "32×16 RGB")
            #expect(close(image.pixel(x: 8, y: 4), [255, 0, 0], tolerance: 8))
            #expect(close(image.pixel(x: 24, y: 4), [0, 255, 0], tolerance: 8))
            #expect(close(image.pixel(x: 8, y: 12), [0, 0, 255], tolerance: 8))
            #expect(close(image.pixel(x: 24, y: 12), [255, 255, 255], tolerance: 8))
        }

        @Test func brokenInputsFailWithTheCodecsMessage() async throws {
            let jpeg = try fixture("sunset-320.jpg")
            var png = try await ImageCodec.encode(try await ImageCodec.decode(jpeg), as: .png)
            let cases: [(Data, String)] = [
                (Data(), "not an image: the data is empty"),
                (Data("hello".utf8), "not a JPEG or PNG image (5 bytes)"),
                (jpeg.prefix(jpeg.count / 2), "cannot decode JPEG: Premature end of JPEG file"),
                (jpeg.prefix(3), "cannot decode JPEG: Premature end of JPEG file"),
                (png.prefix(png.count / 2), "cannot decode PNG: read beyond end of data"),
                (png.prefix(20), "cannot decode PNG: read beyond end of data"),
            ]
            for (data, message) in cases {
                let text = await errorText { _ = try await ImageCodec.decode(data) }
                #expect(text == message)
            }
            var badChecksum = png
            badChecksum[29] ^= 0xFF // the last byte of IHDR's CRC
            let checksumText = await errorText { _ = try await ImageCodec.decode(badChecksum) }
            #expect(checksumText == "cannot decode PNG: IHDR: CRC error")
            png[png.count / 2] ^= 0xFF // inside IDAT: zlib or the filter fails before the CRC is read
            let dataText = await errorText { _ = try await ImageCodec.decode(png) }
            #expect(dataText?.hasPrefix("cannot decode PNG: ") == true)
            var corrupt = jpeg
            for offset in stride(from: jpeg.count / 2, to: jpeg.count / 2 + 64, by: 4) { corrupt[offset] = 0xFF }
            let corruptText = await errorText { _ = try await ImageCodec.decode(corrupt) }
            #expect(corruptText == "cannot decode JPEG: Corrupt JPEG data: premature end of data segment")
        }

        @Test func refusesOversizedImagesBeforeDecoding() async throws {
            // A valid 3×2 PNG whose IHDR claims 50000×40000 (with a matching CRC).
            var png = try fixture("rgba.png")
            png.replaceSubrange(16..<24, with: [0, 0, 0xC3, 0x50, 0, 0, 0x9C, 0x40])
            let crc = crc32(png[12..<29])
            png.replaceSubrange(29..<33, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * $0)) })
            #expect(
                await errorText { _ = try await ImageCodec.decode(png) }
                    == "image is 50000×40000 (2000000000 pixels), more than max_pixels 100000000")
            let jpeg = try fixture("progressive.jpg")
            #expect(
                await errorText { _ = try await ImageCodec.decode(jpeg, maxPixels: 100) }
                    == "image is 24×16 (384 pixels), more than max_pixels 100")
        }

        /// The PNG chunk checksum of `bytes`.
        private func crc32(_ bytes: Data) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
    }
}
