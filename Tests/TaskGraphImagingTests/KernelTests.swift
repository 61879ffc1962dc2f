import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// Exact values of the pixel kernels.
    @Suite struct KernelTests {
        /// Sepia of one pixel of `color`.
        private func sepia(_ color: [UInt8], _ intensity: Double) async throws -> [UInt8] {
            try await SepiaKernel.apply(to: Image(width: 1, height: 1, color: color), intensity: intensity).pixel(
                x: 0, y: 0)
        }

        @Test func sepiaMatchesThePeerAnchors() async throws {
            #expect(try await sepia([255, 255, 255], 1) == [255, 255, 239])
            #expect(try await sepia([128, 128, 128], 1) == [173, 154, 120])
            #expect(try await sepia([255, 255, 255], 0.8) == [255, 255, 242])
            #expect(try await sepia([128, 128, 128], 0.8) == [164, 149, 122])
            #expect(try await sepia([10, 20, 30, 77], 1) == [25, 22, 17, 77])
        }

        @Test func sepiaIsExactOnAPhoto() async throws {
            let photo = try PixelKernels.crop(
                try await ImageCodec.decode(try fixture("sunset-320.jpg")), x: 100, y: 60, width: 120, height: 90)
            #expect(try await SepiaKernel.apply(to: photo, intensity: 0) == photo)
            let toned = try await SepiaKernel.apply(to: photo, intensity: 0.8).pixels
            let input = photo.pixels
            let matrix = SepiaKernel.sepiaMatrix.enumerated().map {
                0.2 * ($0.offset % 4 == 0 ? 1 : 0) + 0.8 * $0.element
            }
            let worst = try await BlockingIO.run {
                var worst = 0
                for pixel in stride(from: 0, to: input.count, by: 3) {
                    for row in 0..<3 {
                        let exact = (0..<3).reduce(0.0) { $0 + matrix[row * 3 + $1] * Double(input[pixel + $1]) }
                        worst = max(worst, abs(Int(toned[pixel + row]) - min(max(Int(exact.rounded()), 0), 255)))
                    }
                }
                return worst
            }
            #expect(worst <= 1)
        }

        @Test func tiltShiftMaskValues() {
            let mask = TiltShiftMask(top: 0.4, bottom: 0.6, falloff: 0.2, curve: .smoothstep)
            let values = [0.1, 0.25, 0.3, 0.5, 0.65, 0.7, 0.9].map(mask.weight(at:))
            #expect(zip(values, [1, 0.84375, 0.5, 0, 0.15625, 0.5, 1]).allSatisfy { abs($0 - $1) < 1e-12 })
            #expect(mask.rowWeights(height: 10) == [256, 256, 256, 128, 0, 0, 0, 128, 256, 256])
            let linear = TiltShiftMask(top: 0.4, bottom: 0.6, falloff: 0.2, curve: .linear)
            #expect(abs(linear.weight(at: 0.25) - 0.75) < 1e-12)
            #expect(abs(linear.weight(at: 0.75) - 0.75) < 1e-12)
            let sharpEdges = TiltShiftMask(top: 0.5, bottom: 0.5, falloff: 0, curve: .smoothstep)
            #expect(sharpEdges.rowWeights(height: 4) == [256, 256, 256, 256])
        }

        @Test func boxWidthsFollowTheFormula() {
            #expect(GaussianBlur.boxWidths(sigma: 8) == [15, 15, 17])
            #expect(GaussianBlur.boxWidths(sigma: 7) == [13, 13, 15])
            #expect(GaussianBlur.boxWidths(sigma: 0.5) == [1, 1, 1])
        }

        @Test func blurIsWithin50dBOfAnExactGaussian() async throws {
            let photo = try PixelKernels.crop(
                try await ImageCodec.decode(try fixture("sunset-320.jpg")), x: 60, y: 40, width: 200, height: 150)
            let sigma = 8.0
            let blurred = try await GaussianBlur.apply(to: photo, sigma: sigma)
            let exact = try await BlockingIO.run { Self.exactGaussian(photo, sigma: sigma) }
            let margin = 40
            let blurredPixels = blurred.pixels
            var actual: [UInt8] = []
            var expected: [UInt8] = []
            for y in margin..<(photo.height - margin) {
                let range = (y * photo.width + margin) * 3..<(y * photo.width + photo.width - margin) * 3
                actual += blurredPixels[range]
                expected += exact[range]
            }
            #expect(psnr(actual, expected) >= 50)
        }

        @Test func blurKeepsAConstantImageAndItsEdges() async throws {
            let flat = Image(
                width: 37, height: 23, channels: 4,
                pixels: Array(repeating: [200, 100, 7, 255], count: 37 * 23).flatMap { $0 })
            #expect(try await GaussianBlur.apply(to: flat, sigma: 20) == flat)
            let step = Image(width: 40, height: 1, channels: 3, pixels: (0..<120).map { $0 < 60 ? 0 : 255 })
            let blurred = try await GaussianBlur.apply(to: step, sigma: 3).pixels
            #expect(Array(blurred.prefix(3)) == [0, 0, 0] && Array(blurred.suffix(3)) == [255, 255, 255])
            #expect(blurred[57] > 90 && blurred[57] < 128 && blurred[60] > 128 && blurred[60] < 165)
        }

        @Test func anyChunkingOfRowsGivesTheSameBlur() async throws {
            // σ 2 reaches 4 rows vertically and the 500 rows make chunks of about 62 rows on two
            // cores: rows 104..<216 of the tall image straddle chunk boundaries; a 120-row crop
            // has other boundaries, and the rows compared are 4 away from its edges.
            let pixels = (0..<(60 * 500 * 3)).map {
                UInt8(truncatingIfNeeded: ($0 % 180) * 7 + ($0 / 180) * 13 + ($0 * $0) % 17)
            }
            let tall = Image(width: 60, height: 500, channels: 3, pixels: pixels)
            let crop = try PixelKernels.crop(tall, x: 0, y: 100, width: 60, height: 120)
            let whole = try await GaussianBlur.apply(to: tall, sigma: 2).pixels
            let part = try await GaussianBlur.apply(to: crop, sigma: 2).pixels
            #expect(Array(whole[(104 * 180)..<(216 * 180)]) == Array(part[(4 * 180)..<(116 * 180)]))
        }

        @Test func tiltShiftKeepsTheFocusBandAndBlursTheRest() async throws {
            let photo = try await ImageCodec.decode(try fixture("sunset-320.jpg"))
            let mask = TiltShiftMask(top: 0.4, bottom: 0.6, falloff: 0.2, curve: .smoothstep)
            let weights = mask.rowWeights(height: photo.height)
            let shifted = try await GaussianBlur.apply(to: photo, sigma: 7, rowWeights: weights)
            let blurred = try await GaussianBlur.apply(to: photo, sigma: 7)
            let rowBytes = photo.rowStride
            func row(_ image: Image, _ y: Int) -> ArraySlice<UInt8> {
                image.pixels[(y * rowBytes)..<((y + 1) * rowBytes)]
            }
            #expect(weights[106] == 0 && row(shifted, 106) == row(photo, 106))
            #expect(weights[10] == 256 && row(shifted, 10) == row(blurred, 10))
            #expect(weights[200] == 256 && row(shifted, 200) == row(blurred, 200))
            #expect(row(shifted, 10) != row(photo, 10))
        }

        @Test func tiltShiftAndSepiaBytesArePinned() async throws {
            // SHA-256 of the samples the Swift loops made before the loops across rows moved to C
            // (tg_blur_*, with an AVX2 build): the photo's rows take the vector loops, the 3×2
            // RGBA image only their tails.
            let cases = [
                (
                    "sunset-320.jpg", "6133684c9d904bb95bcd1fcf3db8e1e9877608e4b7e6ad3d40384e0883c935f4",
                    "c21b799511681934884d10492468c205c17461bbf801f065e7c8dac5e9b63d14"
                ),
                (
                    "rgba.png", "58a4ee90b40a37a07f2e24e14cf665bc9ec7f1d9947c073fb02ac4b7b380bbc1",
                    "c4f66a99958cc4db44eb7199a1b63ea2d682061dfbb14f193c267db3e6ae0801"
                ),
            ]
            let mask = TiltShiftMask(top: 0.4, bottom: 0.6, falloff: 0.2, curve: .smoothstep)
            for (name, tilted, toned) in cases {
                let photo = try await ImageCodec.decode(try fixture(name))
                let shifted = try await GaussianBlur.apply(
                    to: photo, sigma: 8, rowWeights: mask.rowWeights(height: photo.height))
                #expect(ContentDigest.sha256(of: shifted.pixels).description == "sha256:\(tilted)", "\(name)")
                let sepia = try await SepiaKernel.apply(to: shifted, intensity: 0.8)
                #expect(ContentDigest.sha256(of: sepia.pixels).description == "sha256:\(toned)", "\(name)")
            }
        }

        @Test func grayscaleUsesBT601Luma() async throws {
            let image = Image(
                width: 4, height: 1, channels: 4, pixels: [255, 0, 0, 9, 0, 255, 0, 9, 0, 0, 255, 9, 255, 255, 255, 9])
            #expect(
                try await PixelKernels.grayscale(image).pixels == [
                    76, 76, 76, 9, 150, 150, 150, 9, 29, 29, 29, 9, 255, 255, 255, 9,
                ])
        }

        @Test func cropCutsExactlyAndRefusesRectanglesOutside() throws {
            let image = Image(width: 3, height: 2, channels: 3, pixels: Array(0..<18))
            #expect(try PixelKernels.crop(image, x: 1, y: 1, width: 2, height: 1).pixels == [12, 13, 14, 15, 16, 17])
            #expect(throws: ImageError.cropOutside(x: 2, y: 0, width: 2, height: 2, imageWidth: 3, imageHeight: 2)) {
                try PixelKernels.crop(image, x: 2, y: 0, width: 2, height: 2)
            }
            #expect(
                ImageError.cropOutside(x: 2, y: 0, width: 2, height: 2, imageWidth: 3, imageHeight: 2).description
                    == "crop 2×2 at (2, 0) does not fit inside the 3×2 image")
        }

        @Test func resizeAveragesAreasAndKeepsTheAspectRatio() async throws {
            let image = Image(
                width: 4, height: 2, channels: 3,
                pixels: [
                    0, 0, 0, 10, 10, 10, 100, 100, 100, 200, 200, 200,
                    20, 20, 20, 30, 30, 30, 100, 100, 100, 101, 101, 101,
                ])
            let halved = try await ResizeKernel.apply(to: image, width: 2, height: 1).pixels
            #expect(halved == [15, 15, 15, 125, 125, 125])
            #expect(try await ResizeKernel.apply(to: image, width: 8, height: 4).summary == "8×4 RGB")
            let size = { (w: Int?, h: Int?, side: Int?) in
                ResizeKernel.targetSize(width: 1200, height: 800, requestedWidth: w, requestedHeight: h, maxSide: side)
            }
            #expect(size(nil, nil, 300) == (300, 200))
            #expect(size(600, nil, nil) == (600, 400))
            #expect(size(nil, 400, nil) == (600, 400))
            #expect(size(600, 100, nil) == (150, 100))
            #expect(size(nil, nil, 5000) == (1200, 800))
            #expect(size(2400, nil, 1800) == (1800, 1200))
        }

        /// A separable Gaussian of `sigma` in `Double`, edges extended, radius ⌈4σ⌉, rounded.
        private static func exactGaussian(_ image: Image, sigma: Double) -> [UInt8] {
            let radius = Int((4 * sigma).rounded(.up))
            let kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let total = kernel.reduce(0, +)
            let weights = kernel.map { $0 / total }
            let (w, h, c) = (image.width, image.height, image.channels)
            let input = image.pixels.map(Double.init)
            var across = [Double](repeating: 0, count: input.count)
            for y in 0..<h {
                for x in 0..<w {
                    for ch in 0..<c {
                        var sum = 0.0
                        for k in -radius...radius {
                            sum += weights[k + radius] * input[(y * w + min(max(x + k, 0), w - 1)) * c + ch]
                        }
                        across[(y * w + x) * c + ch] = sum
                    }
                }
            }
            var output = [UInt8](repeating: 0, count: input.count)
            for y in 0..<h {
                for x in 0..<w {
                    for ch in 0..<c {
                        var sum = 0.0
                        for k in -radius...radius {
                            sum += weights[k + radius] * across[(min(max(y + k, 0), h - 1) * w + x) * c + ch]
                        }
                        output[(y * w + x) * c + ch] = UInt8(min(max(sum.rounded(), 0), 255))
                    }
                }
            }
            return output
        }
    }
}
