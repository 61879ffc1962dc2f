import Foundation

/// `load`: reads a regular file into memory, as bytes and as a file.
struct LoadOperation: BuiltInAction, FileReadingAction {
    static let type = OperationType(
        name: "load", summary: "Reads a regular file (relative to the pipeline file) as bytes.",
        parameters: [
            ParameterSpec(
                "path", .inputPath,
                "File to read, relative to the pipeline file's directory; a regular file, not a device, FIFO or socket."
            ),
            ParameterSpec(
                "max_bytes", .integer(1...Int.max), default: .integer(FileIO.defaultReadLimit),
                "Fail when the file holds more than this many bytes."),
        ],
        produces: [.bytes, .file],
        makeAction: { setup in
            let written = setup.parameters.string("path") ?? ""
            let path = PathResolver.resolve(written, in: setup.pipelineDirectory)
            // A file that exists already is checked before anything runs; one an earlier
            // operation creates is checked when it is read.
            var info = stat()
            if stat(path, &info) == 0, let kind = FileIO.nonRegularKind(info.st_mode) {
                throw OperationError.readFailed(path: written, reason: kind)
            }
            return LoadOperation(
                path: path, writtenPath: written,
                maxBytes: setup.parameters.integer("max_bytes") ?? FileIO.defaultReadLimit)
        })

    /// The absolute path.
    let path: String
    /// The path as the pipeline writes it, relative to its directory: the key component's name.
    let writtenPath: String
    /// The most bytes the file may hold.
    var maxBytes = FileIO.defaultReadLimit

    var cacheVersion: Int { 1 }

    /// The file it loads.
    var filesRead: [String] { [path] }
    var filesReadParameter: String { "path" }

    func run(in context: TaskContext) async throws -> any OperationResult {
        let path = path
        let maxBytes = maxBytes
        let data = try await OperationError.reportingFileErrors {
            try await context.resources.blockingIO.run { try FileIO.read(path, limit: maxBytes) }
        }
        return LoadedFile(path: path, data: data)
    }

    /// `path`: the absolute path, which its result names (a copy of the pipeline elsewhere loads
    /// another file, even with the same contents); `file.<path as written>`: the digest of the
    /// file's contents.
    func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws {
        key.add("path", path)
        key.add("file.\(writtenPath)", try await files.digest(ofFile: path).description)
    }
}
