import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// Kernels given the only reference to their input write over it; the pixels are the same
    /// either way, and an image someone else still holds is never touched.
    @Suite struct InPlaceKernelTests {
        /// A `width × height` image of varied samples (not smooth, so every pass matters).
        private func pattern(width: Int, height: Int, channels: Int, seed: Int = 0) -> Image {
            let pixels = (0..<(width * height * channels)).map {
                UInt8(truncatingIfNeeded: ($0 % 251) * 7 + ($0 / 97) * 13 + (($0 + seed) * ($0 + seed)) % 29)
            }
            return Image(width: width, height: height, channels: channels, pixels: pixels)
        }

        /// Runs `kernel` twice on copies of `image`: once handing over the only reference (in
        /// place), once while `image` is still held (a copy). Returns both results, checks that
        /// the first reused the input's memory and that `image` kept its pixels.
        private func bothPaths(
            _ image: Image, _ kernel: (consuming Image) async throws -> Image
        ) async throws -> (inPlace: Image, copied: Image) {
            let before = image.pixels
            let unique = Image(width: image.width, height: image.height, channels: image.channels, pixels: before)
            let memory = ObjectIdentifier(unique.storage)
            let inPlace = try await kernel(consume unique)
            #expect(ObjectIdentifier(inPlace.storage) == memory)
            let copied = try await kernel(image)
            #expect(ObjectIdentifier(copied.storage) != ObjectIdentifier(image.storage))
            #expect(image.pixels == before)
            return (inPlace, copied)
        }

        @Test(arguments: [3, 4]) func sepiaGivesTheSamePixelsInPlace(_ channels: Int) async throws {
            // Wider than the 2048-pixel chunks sepia copies out when working in place.
            let image = pattern(width: 2100, height: 5, channels: channels)
            let (inPlace, copied) = try await bothPaths(image) {
                try await SepiaKernel.apply(to: consume $0, intensity: 0.8)
            }
            #expect(inPlace == copied)
            // The C loop computes exactly the 16.16 fixed-point formula, alpha copied.
            let m = SepiaKernel.coefficients(intensity: 0.8).map(Int.init)
            let input = image.pixels
            let output = copied.pixels
            var mismatches = 0
            for pixel in stride(from: 0, to: input.count, by: channels) {
                let (r, g, b) = (Int(input[pixel]), Int(input[pixel + 1]), Int(input[pixel + 2]))
                for row in 0..<3 {
                    let value = min((m[row * 3] * r + m[row * 3 + 1] * g + m[row * 3 + 2] * b + 32768) >> 16, 255)
                    if Int(output[pixel + row]) != value { mismatches += 1 }
                }
                if channels == 4, output[pixel + 3] != input[pixel + 3] { mismatches += 1 }
            }
            #expect(mismatches == 0)
        }

        @Test func grayscaleGivesTheSamePixelsInPlace() async throws {
            let image = pattern(width: 33, height: 7, channels: 4)
            let (inPlace, copied) = try await bothPaths(image) { try await PixelKernels.grayscale(consume $0) }
            #expect(inPlace == copied)
        }

        @Test(arguments: [3, 4]) func blurGivesTheSamePixelsInPlace(_ channels: Int) async throws {
            // 700 rows at σ 3 make several chunks, so chunks read rows their neighbours overwrite.
            let image = pattern(width: 41, height: 700, channels: channels)
            #expect(
                GaussianBlur.chunks(
                    weights: Array(repeating: 256, count: 700), support: 7, rowBytes: 41 * channels, workers: 2
                ).count > 4)
            let (inPlace, copied) = try await bothPaths(image) {
                try await GaussianBlur.apply(to: consume $0, sigma: 3)
            }
            #expect(inPlace == copied)
        }

        @Test func tiltShiftGivesTheSamePixelsInPlace() async throws {
            let image = pattern(width: 37, height: 900, channels: 3, seed: 5)
            let weights = TiltShiftMask(top: 0.4, bottom: 0.6, falloff: 0.2, curve: .smoothstep).rowWeights(height: 900)
            let (inPlace, copied) = try await bothPaths(image) {
                try await GaussianBlur.apply(to: consume $0, sigma: 4, rowWeights: weights)
            }
            #expect(inPlace == copied)
            let rowBytes = 37 * 3
            let row = 450
            #expect(weights[row] == 0)
            #expect(
                Array(copied.pixels[(row * rowBytes)..<((row + 1) * rowBytes)])
                    == Array(image.pixels[(row * rowBytes)..<((row + 1) * rowBytes)]))
        }

        @Test func chunksCoverTheWeightedRowsEvenly() {
            // Two runs of weighted rows around an unweighted band, as a tilt-shift mask makes.
            let weights = (0..<1000).map { Int32($0 >= 400 && $0 < 600 ? 0 : 256) }
            let chunks = GaussianBlur.chunks(weights: weights, support: 10, rowBytes: 300, workers: 2)
            #expect(chunks.first?.lowerBound == 0 && chunks.last?.upperBound == 1000)
            #expect(chunks.allSatisfy { $0.upperBound <= 400 || $0.lowerBound >= 600 })
            #expect(chunks.reduce(0) { $0 + $1.count } == 800)
            #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
            // A quarter of each of two workers' share, but never under 8 · support.
            #expect(chunks.count == 8 && chunks.allSatisfy { $0.count == 100 })
            #expect(
                GaussianBlur.chunks(weights: weights, support: 30, rowBytes: 300, workers: 2).allSatisfy {
                    $0.count >= 240
                })
            #expect(GaussianBlur.chunks(weights: weights, support: 5, rowBytes: 300, workers: 4).count == 16)
            #expect(
                GaussianBlur.chunks(weights: Array(repeating: 0, count: 50), support: 3, rowBytes: 30, workers: 2)
                    .isEmpty)
        }

        @Test func columnCascadeMatchesAWholeBlockFilter() {
            // Blocks shorter than a radius, and radius 0, clamp and copy like the definition.
            for (radii, rows) in [([7, 7, 8], 60), ([2, 0, 3], 5), ([4, 4, 4], 1), ([1, 2, 3], 3)] {
                let width = 19
                let input = (0..<(rows * width)).map { UInt16(truncatingIfNeeded: ($0 * 7919) % 65281) }
                var expected = input
                for radius in radii { expected = Self.columnBox(expected, width: width, rows: rows, radius: radius) }
                let cascade = ColumnBoxCascade(radii: radii, width: width, rows: rows + 3)
                var actual: [UInt16] = []
                var order: [Int] = []
                cascade.filter(rows: rows) { p, row in
                    for i in 0..<width { row[i] = input[p * width + i] }
                } emit: { q, row in
                    order.append(q)
                    actual += UnsafeBufferPointer(start: row, count: width)
                }
                #expect(order == Array(0..<rows))
                #expect(actual == expected, "radii \(radii), \(rows) rows")
            }
        }

        @Test(arguments: [3, 4]) func rowPassMatchesTheDefinition(_ channels: Int) {
            // Every channel of a pixel goes through one vector; rows shorter than the radius clamp;
            // rows of 4·radius + 8 pixels or more, odd or even, take tg_blur_box_row with AVX2.
            for (count, radius) in [(1, 3), (2, 1), (7, 0), (7, 2), (40, 5), (5, 9), (60, 13), (61, 13), (300, 11)] {
                let samples = count * channels
                let input = (0...samples).map { Int32(($0 * 2731) % 65281) }
                var output = [Int32](repeating: -1, count: samples + 1)
                input.withUnsafeBufferPointer { source in
                    output.withUnsafeMutableBufferPointer { target in
                        BoxFilter.row(
                            source.baseAddress!, target.baseAddress!, count: count, channels: channels, radius: radius)
                    }
                }
                let scale = 1 / Float(2 * radius + 1)
                let expected = (0..<samples).map { index -> Int32 in
                    let (x, channel) = (index / channels, index % channels)
                    let sum = (-radius...radius).reduce(Int32(0)) {
                        $0 + input[min(max(x + $1, 0), count - 1) * channels + channel]
                    }
                    return (Float(sum) * scale).roundedInt32
                }
                #expect(Array(output.prefix(samples)) == expected, "\(count) pixels, radius \(radius)")
            }
        }

        /// One box pass down the columns, by the definition: the rounded mean of the window, rows
        /// clamped to the block.
        private static func columnBox(_ input: [UInt16], width: Int, rows: Int, radius: Int) -> [UInt16] {
            var output = input
            let scale = 1 / Float(2 * radius + 1)
            for y in 0..<rows {
                for x in 0..<width {
                    let sum = (-radius...radius).reduce(Int32(0)) {
                        $0 + Int32(input[min(max(y + $1, 0), rows - 1) * width + x])
                    }
                    output[y * width + x] = UInt16((Float(sum) * scale).roundedInt32)
                }
            }
            return output
        }
    }
}
