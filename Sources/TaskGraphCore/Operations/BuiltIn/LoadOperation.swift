/// `load`: reads a file into memory, as bytes and as a file.
struct LoadOperation: TaskAction {
    static let type = OperationType(
        name: "load", summary: "Reads a file (relative to the pipeline file) as bytes.",
        parameters: [
            ParameterSpec("path", .inputPath, "File to read, relative to the pipeline file's directory."),
        ],
        produces: [.bytes, .file],
        makeAction: { setup in
            LoadOperation(path: PathResolver.resolve(setup.parameters.string("path") ?? "", in: setup.pipelineDirectory))
        })

    let path: String

    func run(in context: TaskContext) async throws -> any Artifact {
        let path = path
        let data = try await context.resources.blockingIO.run { try FileIO.read(path) }
        return LoadedFile(path: path, data: data)
    }
}
