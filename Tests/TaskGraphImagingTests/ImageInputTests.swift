import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

/// An image provider that is neither decoded nor bytes, as another module might write.
private struct GeneratedImage: ImageDataProvider, Equatable {
    let side: Int
    var image: Image { get async throws { Image(width: side, height: side, color: [9, 9, 9]) } }
    var summary: String { "generated" }
    static let kind = "test.generated"
    func serialized() -> Data { Data([UInt8(side)]) }
    init(side: Int) { self.side = side }
    init(serialized payload: Data) throws { side = Int(payload.first ?? 0) }
}

extension ImagingTests {
    /// How every image consumer finds its input image.
    @Suite struct ImageInputTests {
        /// A context whose inputs are `results`, named `in0`, `in1`, ….
        private func context(_ results: [any OperationResult], preferring preferred: String? = nil) -> TaskContext {
            TaskContext(
                id: "op", inputs: results.enumerated().map { TaskContext.Input(id: "in\($0)", result: $1) },
                preferredInputID: preferred)
        }

        @Test func aDecodedImageComesFirstThenBytesThenAnyProvider() async throws {
            let red = DecodedImage(Image(width: 2, height: 2, color: [255, 0, 0]), format: .png)
            let jpeg = LoadedFile(path: "sunset-320.jpg", data: try fixture("sunset-320.jpg"))
            let generated = GeneratedImage(side: 3)

            let (first, firstFormat) = try await context([jpeg, generated, red]).inputImage()
            #expect(first == red.image && firstFormat == .png)
            let (second, secondFormat) = try await context([generated, jpeg]).inputImage()
            #expect(second.summary == "320×213 RGB" && secondFormat == .jpeg)
            let (third, thirdFormat) = try await context([WrittenFile(path: "x", byteCount: 1), generated]).inputImage()
            #expect(third.summary == "3×3 RGB" && thirdFormat == .png)
            // The chosen input wins over the others.
            let (chosen, _) = try await context([red, jpeg], preferring: "in1").inputImage()
            #expect(chosen.summary == "320×213 RGB")
        }

        @Test func aDecodeFailureIsTheErrorNotAMissingInput() async throws {
            let photo = LoadedFile(path: "sunset-320.jpg", data: try fixture("sunset-320.jpg"))
            let broken = LoadedFile(path: "broken.jpg", data: photo.data.prefix(4000))
            let black = DecodedImage(Image(width: 1, height: 1, color: [0, 0, 0]), format: .png)
            #expect(
                await errorText { _ = try await context([broken, GeneratedImage(side: 3)]).inputImage() }
                    == "cannot decode JPEG: Premature end of JPEG file")
            #expect(
                await errorText { _ = try await context([BytesResult(Data("text".utf8))]).inputImage() }
                    == "not a JPEG or PNG image (4 bytes)")
            #expect(
                await errorText { _ = try await context([photo]).inputImage(maxPixels: 100) }
                    == "image is 320×213 (68160 pixels), more than max_pixels 100")
            #expect(
                await errorText { _ = try await context([black, broken]).inputImages() }
                    == "cannot decode JPEG: Premature end of JPEG file")
        }

        @Test func onlyNoImageAndNoBytesIsAMissingInput() async throws {
            let noImage: [any OperationResult] = [WrittenFile(path: "x", byteCount: 1), EmptyResult()]
            #expect(
                await errorText { _ = try await context(noImage).inputImage() }
                    == "'op' received no input providing an image")
            #expect(
                await errorText { _ = try await context([]).inputImages() }
                    == "'op' received no input providing an image")
            #expect(
                await errorText {
                    _ = try await ImageSaveEncoder().data(
                        for: context(noImage), path: "a.png", format: nil, quality: nil)
                } == "'op' received no input providing bytes or an image")
            #expect(context([EmptyResult()]).imageInput() == nil)
        }

        @Test func fanInTakesEveryImageInOrderWithItsID() async throws {
            let red = DecodedImage(Image(width: 2, height: 2, color: [255, 0, 0]), format: .png)
            let png = EncodedImage(try fixture("rgba.png"))
            let images = try await context([red, EmptyResult(), png, GeneratedImage(side: 4)]).inputImages()
            #expect(images.map(\.id) == ["in0", "in2", "in3"])
            #expect(images.map(\.image.summary) == ["2×2 RGB", "3×2 RGBA", "4×4 RGB"])
            #expect(images.map(\.format) == [.png, .png, .png])
        }

        @Test func theContactSheetAndTheFiltersUseIt() async throws {
            let photo = try fixture("sunset-320.jpg")
            #expect(
                await errorText {
                    // A sheet small enough for the limit: the photo is what exceeds it.
                    _ = try await runOperation(
                        ContactSheetOperation.type,
                        [
                            "max_pixels": .integer(10_000), "cell_width": .integer(32), "padding": .integer(0),
                            "captions": .boolean(false),
                        ],
                        input: photo)
                } == "image is 320×213 (68160 pixels), more than max_pixels 10000")
            #expect(
                await errorText { _ = try await runOperation(ContactSheetOperation.type, [:]) }
                    == "'op' received no input providing an image")
            #expect(
                await errorText { _ = try await runOperation(ToneOperations.grayscale, [:]) }
                    == "'op' received no input providing an image")
            let gray = try await runOperation(ToneOperations.grayscale, [:], input: photo)
            #expect((gray as? DecodedImage)?.format == .jpeg)
        }
    }
}
