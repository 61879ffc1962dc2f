/// `load`: reads a file into memory, as bytes and as a file.
struct LoadOperation: CacheableAction {
    static let type = OperationType(
        name: "load", summary: "Reads a file (relative to the pipeline file) as bytes.",
        parameters: [
            ParameterSpec("path", .inputPath, "File to read, relative to the pipeline file's directory."),
        ],
        produces: [.bytes, .file],
        makeAction: { setup in
            let written = setup.parameters.string("path") ?? ""
            return LoadOperation(path: PathResolver.resolve(written, in: setup.pipelineDirectory), writtenPath: written)
        })

    /// The absolute path.
    let path: String
    /// The path as the pipeline writes it, relative to its directory: the key component's name.
    let writtenPath: String

    var cacheVersion: Int { 1 }

    func run(in context: TaskContext) async throws -> any Artifact {
        let path = path
        let data = try await context.resources.blockingIO.run { try FileIO.read(path) }
        return LoadedFile(path: path, data: data)
    }

    /// `file.<path as written>`: the digest of the file's contents.
    func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws {
        key.add("file.\(writtenPath)", try await files.digest(ofFile: path).description)
    }
}
