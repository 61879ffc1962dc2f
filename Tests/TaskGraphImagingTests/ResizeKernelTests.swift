import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// The resize kernel's pixels, pinned: its C passes (`tg_resize_across`, `tg_resize_down`) give
    /// the bytes of the Swift loops they replaced, so `resize`'s cache version did not change.
    @Suite struct ResizeKernelTests {
        /// The SHA-256 of `image`'s size and pixels.
        private func digest(_ image: Image) -> String {
            var hasher = ContentHasher()
            hasher.update(Data("\(image.width)x\(image.height)x\(image.channels)\n".utf8))
            hasher.update(Data(image.pixels))
            return hasher.finalize().description
        }

        /// `image` with an alpha channel of a fixed pattern.
        private func withAlpha(_ image: Image) -> Image {
            var pixels: [UInt8] = []
            let rgb = image.pixels
            for index in 0..<(image.width * image.height) {
                pixels += rgb[(3 * index)..<(3 * index + 3)] + [UInt8(truncatingIfNeeded: index * 7)]
            }
            return Image(width: image.width, height: image.height, channels: 4, pixels: pixels)
        }

        /// The Swift loops `tg_resize_across` and `tg_resize_down` replaced, one thread: the
        /// reference the C passes must match byte for byte.
        private func reference(_ image: Image, width: Int, height: Int) -> [UInt8] {
            let (channels, source) = (image.channels, image.pixels)
            let across = ResizeKernel.taps(from: image.width, to: width)
            let down = ResizeKernel.taps(from: image.height, to: height)
            let rowBytes = width * channels
            var middle = [UInt16](repeating: 0, count: rowBytes * image.height)
            for y in 0..<image.height {
                for x in 0..<width {
                    for channel in 0..<channels {
                        var sum: Int32 = 32
                        for k in (x * across.count)..<((x + 1) * across.count) {
                            let sample = source[
                                y * image.width * channels + Int(across.indices[k]) * channels + channel]
                            sum = sum &+ across.weights[k] &* Int32(sample)
                        }
                        middle[y * rowBytes + x * channels + channel] = UInt16(truncatingIfNeeded: sum >> 6)
                    }
                }
            }
            var output = [UInt8](repeating: 0, count: height * rowBytes)
            for y in 0..<height {
                for i in 0..<rowBytes {
                    var sum: Int32 = 1 << 21
                    for k in (y * down.count)..<((y + 1) * down.count) {
                        sum = sum &+ down.weights[k] &* Int32(middle[Int(down.indices[k]) * rowBytes + i])
                    }
                    output[y * rowBytes + i] = UInt8(truncatingIfNeeded: sum &>> 22)
                }
            }
            return output
        }

        /// A real photo (320×213, with and without alpha) and a grey JPEG, shrunk by uneven
        /// factors and by more than 8 (taps of 9 source pixels), squeezed one way, and enlarged.
        @Test func givesTheSwiftLoopsPixelsOnRealPhotos() async throws {
            let photo = try await ImageCodec.decode(try fixture("sunset-320.jpg"))
            let gray = try await ImageCodec.decode(try fixture("gray.jpg"))
            var digests: [String] = []
            for image in [photo, withAlpha(photo), gray] {
                for (width, height) in [(97, 65), (36, 24), (320, 100), (401, 333)] {
                    let resized = try await ResizeKernel.apply(to: image, width: width, height: height)
                    #expect(resized.pixels == reference(image, width: width, height: height), "\(width)×\(height)")
                    digests.append(digest(resized))
                }
            }
            #expect(
                digests == [
                    "sha256:d96f1ec583b69c246e69af1184a056bf90642239c8f53176b4dd9aa2821af589",
                    "sha256:875f750cb99945b9c0f3af5d885c4a9f4be53ade75c55899990ee9b688d64157",
                    "sha256:c453101991758a1edd9ec81fabe36e90db929e28e99097ffef1c901992483c3d",
                    "sha256:1f8e43a1d882cf97ed98053eae94cfbcf13ff1360c23b704cf622abac5bd1a24",
                    "sha256:77b4fb46740eb6a1a421004e1e9d015fbb6130a48995305348469b2bb9e46558",
                    "sha256:41dfd67cd4ca53709576f00f1e4d4108177c607f7e09f6bb7aa6d3dbc3417209",
                    "sha256:3c59931197fd67899052b602f1275cd8779e817775c58483d9e3cc0de1fd72d3",
                    "sha256:f43d6e8bc1adcf7077f92e88292e3a22d2d7306f1e0b07a33d02a9e4183f7b22",
                    "sha256:0777e30475ff555254de35b1b0fee9ff73163268b91758bbdc46f1d124b2e7c9",
                    "sha256:a6301d55d00c7ec890323aa97f62de8a395fc31efaae29d0d0f5f28f272c6443",
                    "sha256:2b6b89bb6d12f0f379f37156fe7068d6e89744d4ca0c19824ba2ae3ad16cb644",
                    "sha256:5786590ad4c70dd1546081a7176bc6e22009b62bec8b8cdfca1f682c5e693c03",
                ])
        }

        /// One-pixel and two-pixel sources and targets, and odd widths whose last pixels take the
        /// one-sample-at-a-time path (a 3-sample pixel read as 4 bytes would pass the row's end).
        @Test func givesTheSwiftLoopsPixelsAtTheSmallestSizes() async throws {
            let photo = try await ImageCodec.decode(try fixture("sunset-320.jpg"))
            let tiny = [
                Image(width: 1, height: 1, channels: 3, pixels: [200, 100, 50]),
                Image(width: 2, height: 3, channels: 4, pixels: (0..<24).map { UInt8($0 * 11) }),
                Image(width: 3, height: 1, channels: 3, pixels: [0, 255, 7, 9, 128, 33, 250, 1, 64]),
            ]
            for image in tiny + [photo, withAlpha(photo)] {
                for (width, height) in [(1, 1), (1, 40), (319, 1), (2, 3), (5, 7)] {
                    let resized = try await ResizeKernel.apply(to: image, width: width, height: height)
                    #expect(
                        resized.pixels == reference(image, width: width, height: height),
                        "\(image.width)×\(image.height)×\(image.channels) to \(width)×\(height)")
                }
            }
        }
    }
}
