import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// `resize` of a JPEG: decoded at 1/2, 1/4 or 1/8 scale in the DCT domain, then area-averaged.
    @Suite struct ShrinkOnDecodeTests {
        /// `resize`'s target for `max_side`.
        private func maxSide(_ side: Int) -> ImageFilter.ResizeTarget {
            { ResizeKernel.targetSize(width: $0, height: $1, requestedWidth: nil, requestedHeight: nil, maxSide: side) }
        }

        @Test func picksTheSmallestScaleStillAtLeastTheTarget() {
            #expect(JPEGCodec.scaleDenominator(from: (320, 213), atLeast: (40, 27)) == 8)
            #expect(JPEGCodec.scaleDenominator(from: (320, 213), atLeast: (41, 27)) == 4)
            #expect(JPEGCodec.scaleDenominator(from: (320, 213), atLeast: (160, 107)) == 2)
            #expect(JPEGCodec.scaleDenominator(from: (320, 213), atLeast: (161, 107)) == 1)
            #expect(JPEGCodec.scaleDenominator(from: (320, 213), atLeast: (640, 426)) == 1)
        }

        @Test func aShrunkPhotoHasItsSizeAndIsCloseToAWholeDecode() async throws {
            let data = try fixture("sunset-320.jpg")
            let whole = try await ImageCodec.decode(data)
            for (side, decoded) in [(40, "40×27 RGB"), (100, "160×107 RGB"), (200, "320×213 RGB")] {
                let (image, size) = try await ImageCodec.decode(data, maxPixels: 100_000, forSize: maxSide(side))
                #expect(image.summary == decoded)
                let shrunk = try await ResizeKernel.resized(image, to: size)
                let reference = try await whole.shrunk(toMaxSide: side)
                #expect(shrunk.summary == reference.summary)
                #expect(psnr(shrunk.pixels, reference.pixels) > 30, "max side \(side)")
            }
        }

        @Test(arguments: 1...8) func keepsTheEXIFOrientation(_ orientation: Int) async throws {
            // 32×16 upright: red, green / blue, white quadrants; decoded at 1/4 scale.
            let (image, size) = try await ImageCodec.decode(
                try fixture("orientation-\(orientation).jpg"), maxPixels: 1000, forSize: maxSide(8))
            #expect(image.summary == "8×4 RGB")
            #expect(size.width == 8 && size.height == 4)
            #expect(close(image.pixel(x: 1, y: 0), [255, 0, 0], tolerance: 40))
            #expect(close(image.pixel(x: 6, y: 0), [0, 255, 0], tolerance: 40))
            #expect(close(image.pixel(x: 1, y: 3), [0, 0, 255], tolerance: 40))
            #expect(close(image.pixel(x: 6, y: 3), [255, 255, 255], tolerance: 40))
        }

        @Test func theResizeOperationShrinksJPEGBytesOnDecode() async throws {
            let data = try fixture("sunset-320.jpg")
            let result = try await runOperation(GeometryOperations.resize, ["max_side": .integer(40)], input: data)
            let image = try #require(result as? DecodedImage)
            #expect(image.format == .jpeg)
            let reference = try await ImageCodec.decode(data).shrunk(toMaxSide: 40)
            #expect(image.image.summary == "40×27 RGB")
            #expect(psnr(image.image.pixels, reference.pixels) > 30)
            // A decoded image is shrunk as it is.
            let action = try makeOperationAction(GeometryOperations.resize, ["max_side": .integer(40)])
            let whole = DecodedImage(try await ImageCodec.decode(data), format: .jpeg)
            let decoded = try await action.run(in: TaskContext(id: "op", inputs: [.init(id: "tone", result: whole)]))
            #expect((decoded as? DecodedImage)?.image == reference)
        }
    }
}
