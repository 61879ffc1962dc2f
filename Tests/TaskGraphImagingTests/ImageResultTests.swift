import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// The serialised forms and digests of the image results. The digests and encodings are
    /// written out literally: they are a wire format (docs/results.md) and must never change.
    @Suite struct ImageResultTests {
        /// The core's kinds and imaging's.
        private let registry = ResultRegistry(CoreOperations.resultKinds + ImagingOperations.resultKinds)

        @Test func encodedImagesAreTheirBytes() async throws {
            let value = EncodedImage(try fixture("rgba.png"))
            let trip = try await roundTrip(value, through: registry)
            #expect(trip.payload == (try fixture("rgba.png")))
            #expect(trip.decoded == value)
            #expect(trip.fromRegistry as? EncodedImage == value)
            #expect(
                trip.digest.description == "sha256:d125241a5d1efb68da2e39872091112ac8c8d2f23be39539b364ef98f0258971")
            #expect(trip.digest == trip.digestOfEncoding)
            // The decoding limit is the holder's policy, not content.
            #expect(EncodedImage(value.data, maxPixels: 10) == value)
            #expect(try await (trip.fromRegistry as? EncodedImage)?.image == (try await value.image))
        }

        @Test func decodedImagesKeepEveryPixelTheFormatAndTheQuality() async throws {
            let rgba = DecodedImage(
                Image(width: 2, height: 1, channels: 4, pixels: [255, 0, 0, 255, 0, 0, 255, 128]), format: .png,
                quality: 75)
            let rgb = DecodedImage(Image(width: 3, height: 2, color: [10, 20, 30]), format: .jpeg)
            let cases: [(DecodedImage, payload: String, digest: String)] = [
                (
                    rgba, "5447494d0104024b0000000200000001ff0000ff0000ff80",
                    "sha256:5b16367618843771286f334f5aca4305607229fa045c6ac6dfcdc01ba4653a65"
                ),
                (
                    rgb, "5447494d0103015a00000003000000020a141e0a141e0a141e0a141e0a141e0a141e",
                    "sha256:04083a703971adcbc41a89311666b6928546c89400f6856b0bb3d928209f33fa"
                ),
            ]
            for (value, payload, digest) in cases {
                let trip = try await roundTrip(value, through: registry)
                #expect(trip.payload.hex == payload)
                #expect(trip.decoded == value)
                #expect(trip.fromRegistry as? DecodedImage == value)
                #expect(trip.digest.description == digest)
                #expect(trip.digest == trip.digestOfEncoding)
            }
        }

        @Test func aPhotoRoundTripsBitExactAndItsDigestIsHashedInSlices() async throws {
            let photo = DecodedImage(
                try await ImageCodec.decode(try fixture("sunset-320.jpg")), format: .jpeg, quality: 80)
            let trip = try await roundTrip(photo, through: registry)
            #expect(trip.payload.count == 16 + 320 * 213 * 3)
            #expect(trip.decoded.image.pixels == photo.image.pixels)
            #expect(trip.fromRegistry as? DecodedImage == photo)
            #expect(trip.digest == trip.digestOfEncoding)
            // 2.8 MB of pixels: the digest, streamed from the pixels, crosses slice boundaries.
            let large = DecodedImage(Image(width: 1000, height: 700, color: [1, 2, 3, 4]), format: .png)
            #expect(large.image.height * large.image.rowStride > 2 * ContentHasher.defaultSliceSize)
            let largeTrip = try await roundTrip(large, through: registry)
            #expect(largeTrip.digest == largeTrip.digestOfEncoding)
            // What a store hashes and writes without copying the pixels: the same payload.
            for image in [photo, large] {
                #expect(try image.withPayloadParts { $0.reduce(Data(), +) } == (try await image.serialized()))
            }
            #expect(largeTrip.decoded == large)
            let json = try JSONEncoder().encode(photo)
            #expect(try JSONDecoder().decode(DecodedImage.self, from: json) == photo)
            let encodedJSON = try JSONEncoder().encode(EncodedImage(try fixture("rgba.png")))
            #expect(
                try JSONDecoder().decode(EncodedImage.self, from: encodedJSON) == EncodedImage(try fixture("rgba.png")))
        }

        @Test func everyTruncationOrExtraByteIsAnError() async throws {
            let value = DecodedImage(Image(width: 2, height: 2, color: [1, 2, 3, 4]), format: .png)
            let encoded = try await SerializedResult(of: value).encoded
            let failures = decodingFailures(of: damagedCopies(of: encoded), through: registry)
            #expect(failures.count == encoded.count + 1)
            #expect(!failures.contains { $0 == "decoded" || $0.hasPrefix("unexpected") }, "\(failures)")
            let flipped = decodingFailures(of: flippedCopies(of: encoded), through: registry)
            #expect(!flipped.contains { $0.hasPrefix("unexpected") }, "\(flipped)")
            // The payload alone, cut anywhere.
            let payload = try await value.serialized()
            for count in 0..<payload.count {
                #expect(throws: ResultCodingError.self) { try DecodedImage(serialized: payload.prefix(count)) }
            }
        }

        @Test func damagedPixelPayloadsSayWhatIsWrong() throws {
            /// A header with these fields, then `pixelCount` bytes.
            func payload(
                magic: String = "TGIM", version: UInt8 = 1, channels: UInt8 = 3, format: UInt8 = 1,
                quality: UInt8 = 90, width: UInt32 = 2, height: UInt32 = 2, pixelCount: Int = 12
            ) -> Data {
                var writer = ResultWriter()
                writer.append(raw: Array(magic.utf8))
                writer.append(version)
                writer.append(channels)
                writer.append(format)
                writer.append(quality)
                writer.append(width)
                writer.append(height)
                writer.append(raw: [UInt8](repeating: 7, count: pixelCount))
                return writer.data
            }
            func failure(_ payload: Data) -> String {
                do {
                    _ = try DecodedImage(serialized: payload)
                    return "decoded"
                } catch {
                    return String(describing: error)
                }
            }
            #expect(failure(payload()) == "decoded")
            #expect(failure(payload(magic: "TGIX")) == "'image.decoded' result does not start with 'TGIM'")
            #expect(
                failure(payload(version: 2))
                    == "'image.decoded' result has layout version 2; this build reads version 1")
            #expect(
                failure(payload(channels: 1))
                    == "invalid 'image.decoded' result: channels is 1, not 3 (RGB) or 4 (RGBA)")
            #expect(
                failure(payload(format: 0)) == "invalid 'image.decoded' result: format is 0, not 1 (JPEG) or 2 (PNG)")
            #expect(failure(payload(quality: 101)) == "invalid 'image.decoded' result: quality is 101, not 1 to 100")
            #expect(failure(payload(width: 0)) == "invalid 'image.decoded' result: size is 0×2, which has no pixels")
            #expect(
                failure(payload(pixelCount: 10))
                    == "truncated 'image.decoded' result: pixels needs 12 bytes at offset 16, only 10 remain")
            #expect(
                failure(payload(pixelCount: 13)) == "'image.decoded' result has 1 unexpected bytes after its last field"
            )
            #expect(
                failure(payload(width: 65536, height: 65536))
                    == "truncated 'image.decoded' result: pixels needs 12884901888 bytes at offset 16, only 12 remain")
            #expect(
                failure(payload(width: .max, height: .max))
                    == "invalid 'image.decoded' result: size is 4294967295×4294967295, more samples than a payload "
                    + "can hold"
            )
        }

        @Test func aQualityTheLayoutCannotHoldIsRefusedWhenSerialising() async {
            let value = DecodedImage(Image(width: 1, height: 1, color: [0, 0, 0]), format: .jpeg, quality: 0)
            await #expect(
                throws: ResultCodingError.unrepresentable(
                    subject: "'image.decoded' result", reason: "quality 0 is not 1 to 100")
            ) {
                try await value.serialized()
            }
            await #expect(throws: ResultCodingError.self) { try await value.digest }
        }

        @Test func imagingExportsItsKinds() {
            #expect(ImagingOperations.resultKinds.map(\.name) == ["image.encoded", "image.decoded"])
            #expect(
                registry.names == [
                    "bytes", "empty", "file.loaded", "file.written", "image.decoded", "image.encoded", "process.output",
                    "result.unstored", "stored-reference",
                ])
        }
    }
}
