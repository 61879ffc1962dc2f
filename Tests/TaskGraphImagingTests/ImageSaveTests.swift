import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// What `save` writes for bytes and for images.
    @Suite struct ImageSaveTests {
        /// A context whose single input is `result`.
        private func context(_ result: any OperationResult) -> TaskContext {
            TaskContext(id: "save", inputs: [TaskContext.Input(id: "in", result: result)])
        }

        @Test func bytesBecomeTheFormatTheExtensionOrFormatNames() async throws {
            let jpeg = try fixture("sunset-320.jpg")
            let loaded = LoadedFile(path: "sunset-320.jpg", data: jpeg)
            let same = try await ImageSaveEncoder().data(for: context(loaded), path: "a.jpg", format: nil, quality: 90)!
            #expect(same == jpeg)
            let alsoSame = try await ImageSaveEncoder().data(
                for: context(loaded), path: "a.png", format: "jpeg", quality: 90)!
            #expect(alsoSame == jpeg)
            let byExtension = try await ImageSaveEncoder().data(
                for: context(loaded), path: "a.png", format: nil, quality: 90)!
            #expect(ImageFormat.sniff(byExtension) == .png)
            let converted = try await ImageSaveEncoder().data(
                for: context(loaded), path: "a.jpg", format: "png", quality: 90)!
            #expect(ImageFormat.sniff(converted) == .png)
            #expect(try await ImageCodec.decode(converted) == (try await ImageCodec.decode(jpeg)))
        }

        @Test func bytesThatAreNoImageAreRefusedForAnImageFormat() async throws {
            let text = BytesResult(Data("not an image".utf8))
            for (path, format) in [("a.png", nil), ("a.bin", "png")] as [(String, String?)] {
                await #expect(throws: ImageError.notAnImageToSave(format: .png, byteCount: 12)) {
                    _ = try await ImageSaveEncoder().data(for: context(text), path: path, format: format, quality: 90)
                }
            }
            #expect(
                ImageError.notAnImageToSave(format: .png, byteCount: 12).description
                    == "the input is not a JPEG or PNG image (12 bytes), so it cannot be saved as PNG; "
                    + "save it under a path whose extension names no image format")
            let unchanged = try await ImageSaveEncoder().data(
                for: context(text), path: "a.bin", format: nil, quality: 90)
            #expect(unchanged == Data("not an image".utf8))
        }

        @Test func imagesAreEncodedByFormatThenExtensionThenOrigin() async throws {
            let image = DecodedImage(Image(width: 2, height: 2, color: [1, 2, 3]), format: .jpeg)
            let formats = [
                try await ImageSaveEncoder().data(for: context(image), path: "a.png", format: nil, quality: 90)!,
                try await ImageSaveEncoder().data(for: context(image), path: "a.png", format: "jpeg", quality: 90)!,
                try await ImageSaveEncoder().data(for: context(image), path: "a.out", format: nil, quality: 90)!,
            ].map(ImageFormat.sniff)
            #expect(formats == [.png, .jpeg, .jpeg])
            #expect(try await image.data == (try await ImageCodec.encode(image.image, as: .jpeg)))
            #expect(image.summary == "2×2 RGB")
            #expect(EncodedImage(try fixture("rgba.png")).summary == "PNG, 76 B")
        }
    }
}
