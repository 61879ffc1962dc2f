import TaskGraphCore

/// `contact-sheet`: every input image in one grid with captions (fan-in).
struct ContactSheetOperation: BuiltInAction {
    static let type = OperationType(
        name: "contact-sheet",
        summary: "Lays out every input image in a captioned grid, one picture of the whole run.",
        parameters: [
            ParameterSpec(
                "columns", .integer(0...64), default: .integer(0), "Images per row; 0 picks a near-square grid."),
            ParameterSpec(
                "cell_width", .integer(32...2048), default: .integer(320),
                "Width of each picture cell in pixels (height: three quarters of it)."),
            ParameterSpec(
                "padding", .integer(0...256), default: .integer(16), "Space around and between cells in pixels."),
            ParameterSpec(
                "captions", .boolean, default: .boolean(true), "Write each image's item (or operation id) under it."),
            ImageFilter.maxPixelsParameter,
        ],
        input: .all(of: [.image, .bytes]),
        produces: [.image],
        makeAction: { setup in
            let parameters = setup.parameters
            return ContactSheetOperation(
                sheet: ContactSheetLayout(
                    columns: parameters.integer("columns") ?? 0, cellWidth: parameters.integer("cell_width") ?? 320,
                    padding: parameters.integer("padding") ?? 16, captions: parameters.boolean("captions") ?? true),
                maxPixels: parameters.integer("max_pixels") ?? ImageCodec.defaultMaxPixels)
        })

    let sheet: ContactSheetLayout
    let maxPixels: Int

    var cacheVersion: Int { 1 }

    /// Yes: the sheet is a function of its inputs' pixels and ids and its parameters.
    var isRecomputable: Bool { true }

    func run(in context: TaskContext) async throws -> any OperationResult {
        // Checked before any input is decoded or the sheet allocated.
        let size = sheet.size(for: context.inputs.count)
        try ImageCodec.checkResultLimit(width: size.width, height: size.height, limit: maxPixels)
        let entries = try await context.inputImages(maxPixels: maxPixels).map {
            (caption: Self.caption(for: $0.id), image: $0.image)
        }
        return DecodedImage(try await sheet.render(entries), format: .jpeg)
    }

    /// `sepia[lake]` → `lake`; a plain id stays as it is.
    static func caption(for id: String) -> String {
        guard id.hasSuffix("]"), let open = id.firstIndex(of: "[") else { return id }
        return String(id[id.index(after: open)..<id.index(before: id.endIndex)])
    }
}
