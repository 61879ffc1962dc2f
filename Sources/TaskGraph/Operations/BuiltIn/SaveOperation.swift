/// `save`: writes its input atomically to a path inside the output directory.
struct SaveOperation: TaskAction {
    static let type = OperationType(
        name: "save",
        summary: "Writes its input to a file in the output directory, atomically (temp file + rename).",
        parameters: [
            ParameterSpec("path", .outputPath, "Destination, relative to the output directory; may not leave it."),
        ],
        input: .one(of: [.bytes]),
        produces: [.file],
        makeAction: { setup in
            SaveOperation(path: PathResolver.resolve(setup.parameters.string("path") ?? "", in: setup.outputDirectory))
        })

    let path: String

    func run(in context: TaskContext) async throws -> any Artifact {
        let data = try await context.input((any BytesProvider).self).data
        let path = path
        try await CancellationFlag.run { flag in
            try await BlockingIO.run {
                try FileIO.writeAtomically(data, to: path) { flag.isCancelled }
            }
        }
        return WrittenFile(path: path, byteCount: data.count)
    }
}
