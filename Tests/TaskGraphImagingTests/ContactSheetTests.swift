import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

@Suite struct ContactSheetTests {
    @Test func captionsAreTheItemsOfInstanceIDs() {
        #expect(ContactSheetOperation.caption(for: "tone[lake]") == "lake")
        #expect(ContactSheetOperation.caption(for: "final") == "final")
    }

    @Test func gridFitsEveryImageIntoItsCellAndKeepsTheBackground() async throws {
        let red = Image(width: 40, height: 20, color: [255, 0, 0])
        let blue = Image(width: 10, height: 30, color: [0, 0, 255, 255])
        let sheet = ContactSheetLayout(columns: 2, cellWidth: 40, padding: 4, captions: false)
        let image = try await sheet.render([("red", red), ("blue", blue)])
        #expect((image.width, image.height) == (2 * 40 + 3 * 4, 30 + 2 * 4))
        #expect(image.pixel(x: 0, y: 0) == [24, 24, 27])
        #expect(image.pixel(x: 4 + 20, y: 4 + 15) == [255, 0, 0])
        #expect(image.pixel(x: 4 + 40 + 4 + 20, y: 4 + 15) == [0, 0, 255])
        #expect(image.pixel(x: 4 + 40 + 4 + 2, y: 4 + 15) == [24, 24, 27])
    }

    /// A photo that already fits its cell is copied as it is (not resampled), an RGBA one is
    /// blended over the background, and every other pixel is the background.
    @Test func aPhotoThatFitsItsCellIsCopiedExactly() async throws {
        let photo = try await ImageCodec.decode(try fixture("sunset-320.jpg")).shrunk(toMaxSide: 40)
        #expect(photo.summary == "40×27 RGB")
        let translucent = Image(width: 40, height: 30, color: [255, 255, 255, 128])
        let sheet = ContactSheetLayout(columns: 2, cellWidth: 40, padding: 4, captions: false)
        let image = try await sheet.render([("photo", photo), ("white", translucent)])
        let top = 4 + (30 - 27) / 2
        var cell: [UInt8] = []
        for y in top..<(top + 27) {
            for x in 4..<44 { cell += image.pixel(x: x, y: y) }
        }
        #expect(cell == photo.pixels)
        // (255 · 128 + 24 · 127 + 127) / 255 and (255 · 128 + 27 · 127 + 127) / 255
        #expect(image.pixel(x: 4 + 40 + 4, y: 4) == [140, 140, 141])
        #expect(image.pixel(x: 2, y: 2) == [24, 24, 27])
        #expect(image.pixel(x: 20, y: top - 1) == [24, 24, 27])
        #expect(image.pixel(x: 20, y: top + 27) == [24, 24, 27])
        #expect(image.pixel(x: 2 * 40 + 3 * 4 - 1, y: 30 + 2 * 4 - 1) == [24, 24, 27])
    }

    @Test func captionsAreDrawnAndFitTheCell() {
        #expect(CaptionFont.width(of: "abc") > 0)
        #expect(CaptionFont.width(of: CaptionFont.fitting(String(repeating: "w", count: 100), in: 60)) <= 60)
    }
}
