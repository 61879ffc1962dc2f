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

    @Test func captionsAreDrawnAndFitTheCell() {
        #expect(CaptionFont.width(of: "abc") > 0)
        #expect(CaptionFont.width(of: CaptionFont.fitting(String(repeating: "w", count: 100), in: 60)) <= 60)
    }
}
