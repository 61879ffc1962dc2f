import Foundation

/// `save`: writes its input atomically to a path inside the output directory.
///
/// The core writes bytes as they are; an operation family that knows file formats (imaging:
/// `jpeg`, `png`) passes a `SaveEncoder`, which adds the `format` and `quality` parameters.
public struct SaveOperation: BuiltInAction {
    /// The `save` type, encoding through `encoder` when one is given.
    public static func type(encoder: (any SaveEncoder)? = nil) -> OperationType {
        var parameters = [
            ParameterSpec("path", .outputPath, "Destination, relative to the output directory; may not leave it.")
        ]
        if let encoder {
            parameters += [
                ParameterSpec(
                    "format", .choice(encoder.formatNames), optional: true,
                    "File format (default: from the path's extension, e.g. .jpg/.jpeg or .png)."),
                ParameterSpec(
                    "quality", .integer(1...100), optional: true,
                    "Quality when encoding lossily, e.g. JPEG (default 90)."),
            ]
        }
        return OperationType(
            name: "save",
            summary:
                "Writes its input to a file in the output directory, atomically (temp file + rename); images are "
                + "encoded.",
            parameters: parameters,
            input: .one(of: Set([.bytes] + (encoder?.consumes ?? []))),
            produces: [.file],
            makeAction: { setup in
                SaveOperation(
                    path: PathResolver.normalized(
                        PathResolver.resolve(setup.parameters.string("path") ?? "", in: setup.outputDirectory)),
                    outputDirectory: PathResolver.normalized(setup.outputDirectory),
                    format: setup.parameters.string("format"), quality: setup.parameters.integer("quality"),
                    encoder: encoder)
            })
    }

    let path: String
    /// The directory `path` lies beneath, reached without following links below it.
    let outputDirectory: String
    let format: String?
    let quality: Int?
    let encoder: (any SaveEncoder)?

    /// Version 2: bytes are converted to the image format the path or `format` names (version
    /// 1 wrote them unchanged), so results stored by version 1 are not reused.
    public var cacheVersion: Int { 2 }

    /// The file it writes.
    public var outputFiles: [String] { [path] }

    public func run(in context: TaskContext) async throws -> any OperationResult {
        let data: Data
        if let encoded = try await encoder?.data(for: context, path: path, format: format, quality: quality) {
            data = encoded
        } else if let bytes = context.inputIfPresent((any BytesProvider).self) {
            data = try await bytes.data
        } else {
            throw OperationError.missingInput(node: context.id, expected: "bytes")
        }
        let (path, temporaryFiles) = (path, context.resources.temporaryFiles)
        try await OperationError.reportingFileErrors {
            try await CancellationFlag.run { flag in
                try await context.resources.blockingIO.run {
                    try FileIO.writeAtomically(
                        data, to: path, beneath: outputDirectory, isCancelled: { flag.isCancelled },
                        temporaryFiles: temporaryFiles)
                }
            }
        }
        return WrittenFile(path: path, byteCount: data.count)
    }
}

/// Turns `save`'s input into the bytes of a file format (images: JPEG, PNG).
public protocol SaveEncoder: Sendable {
    /// The names `format:` accepts, e.g. `jpeg`, `png`.
    var formatNames: [String] { get }
    /// What `save` consumes besides bytes, e.g. images.
    var consumes: [DataKind] { get }
    /// The bytes to write for the input of `context`, or nil to write its bytes as they are.
    ///
    /// - Parameters:
    ///   - path: The destination; its extension may choose the format.
    ///   - format: The format asked for with `format:`, if any.
    ///   - quality: The quality asked for with `quality:`, if any.
    func data(for context: TaskContext, path: String, format: String?, quality: Int?) async throws -> Data?
}
