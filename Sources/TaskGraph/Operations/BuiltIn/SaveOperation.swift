/// `save`: writes its input atomically to a path inside the output directory.
struct SaveOperation: TaskAction {
    static let type = OperationType(
        name: "save",
        summary: "Writes its input to a file in the output directory, atomically (temp file + rename); images are encoded.",
        parameters: [
            ParameterSpec("path", .outputPath, "Destination, relative to the output directory; may not leave it."),
            ParameterSpec("format", .choice(ImageFormat.allCases.map(\.rawValue)), optional: true, "Image format (default: from the path's extension, .jpg/.jpeg or .png)."),
            ParameterSpec("quality", .integer(1...100), optional: true, "JPEG quality when encoding an image (default 90)."),
        ],
        input: .one(of: [.bytes, .image]),
        produces: [.file],
        makeAction: { setup in
            SaveOperation(
                path: PathResolver.resolve(setup.parameters.string("path") ?? "", in: setup.outputDirectory),
                format: setup.parameters.string("format").flatMap(ImageFormat.init(rawValue:)),
                quality: setup.parameters.integer("quality") ?? ImageCodec.defaultQuality)
        })

    let path: String
    let format: ImageFormat?
    let quality: Int

    func run(in context: TaskContext) async throws -> any Artifact {
        let data = try await SavedImageData.data(for: context, path: path, format: format, quality: quality)
        let path = path
        try await CancellationFlag.run { flag in
            try await BlockingIO.run {
                try FileIO.writeAtomically(data, to: path) { flag.isCancelled }
            }
        }
        return WrittenFile(path: path, byteCount: data.count)
    }
}
