import Foundation

/// The files an `exec` declares: `inputs:`, read by the program, whose contents enter its cache
/// key; `outputs:`, written by it, which must exist after it succeeds and are removed when it
/// fails, so that a half-written file is never taken for a finished one (as ninja does).
///
/// Every path is relative to the pipeline file's directory (or absolute, for inputs). The
/// methods that touch files block: call them through the run's `blockingIO`.
struct ExecDeclaredFiles: Sendable {
    /// The operation instance's id, for messages.
    let operation: String
    /// The pipeline file's directory.
    let directory: String
    /// `inputs:` as written: paths and patterns (`PathGlob`).
    let inputs: [String]
    /// `outputs:` as written.
    let outputs: [String]
    /// Whether an input is a pattern.
    let hasPatterns: Bool

    /// Every mistake among the declared paths of one instance: an empty path
    /// (`OperationError.emptyPath`), an output that is absolute or climbs out of the pipeline
    /// file's directory (`.outputOutsidePipelineDirectory`).
    static func mistakes(inputs: [String], outputs: [String]) -> [InvalidParameterEntries.Entry] {
        let empty = inputs.enumerated().filter { $0.element.isEmpty }.map { index, _ in
            InvalidParameterEntries.Entry(
                parameter: "inputs", position: .index(index), error: .emptyPath(parameter: "inputs"))
        }
        return empty
            + outputs.enumerated().compactMap { index, output in
                let error: OperationError? =
                    output.isEmpty
                    ? .emptyPath(parameter: "outputs")
                    : OutputPath.isContained(output) ? nil : .outputOutsidePipelineDirectory(output)
                return error.map {
                    InvalidParameterEntries.Entry(parameter: "outputs", position: .index(index), error: $0)
                }
            }
    }

    /// Checks the declared paths of one instance.
    /// - Throws: `InvalidParameterEntries` with every mistake `mistakes` finds.
    init(operation: String, directory: String, inputs: [String], outputs: [String]) throws(InvalidParameterEntries) {
        let mistakes = Self.mistakes(inputs: inputs, outputs: outputs)
        guard mistakes.isEmpty else { throw InvalidParameterEntries(mistakes) }
        self.operation = operation
        self.directory = directory
        self.inputs = inputs
        self.outputs = outputs
        hasPatterns = inputs.contains(where: PathGlob.isPattern)
    }

    /// The absolute paths of the outputs.
    var outputPaths: [String] { outputs.map { PathResolver.resolve($0, in: directory) } }

    /// The files the inputs name, as written (patterns expanded), sorted, each once. A pattern
    /// may match nothing; a plain path must name a file.
    /// - Throws: `OperationError.declaredInputMissing`, `.declaredInputNotAFile`.
    func inputFiles() throws(OperationError) -> [String] {
        // One pattern's matches are sorted and unique already.
        if inputs.count == 1, PathGlob.isPattern(inputs[0]) { return PathGlob.expand(inputs[0], in: directory) }
        var files = Set<String>()
        for input in inputs {
            if PathGlob.isPattern(input) {
                files.formUnion(PathGlob.expand(input, in: directory))
                continue
            }
            switch FileKind(at: PathResolver.resolve(input, in: directory)) {
            case .regular: files.insert(input)
            case .missing: throw .declaredInputMissing(operation: operation, path: input)
            case .directory, .other: throw .declaredInputNotAFile(operation: operation, path: input)
            }
        }
        return files.sorted()
    }

    /// The outputs the program created, with the digests of their contents: part of its result.
    /// - Throws: `OperationError.declaredOutputMissing`, `.declaredOutputNotAFile`, or
    ///   `.readFailed` for one that cannot be read.
    func createdOutputs() throws(OperationError) -> [ProcessOutput.DeclaredFile] {
        var files: [ProcessOutput.DeclaredFile] = []
        files.reserveCapacity(outputs.count)
        for (output, path) in zip(outputs, outputPaths) {
            switch FileKind(at: path) {
            case .regular: files.append(.init(path: output, digest: try ContentDigest.sha256(ofFileAt: path)))
            case .missing: throw .declaredOutputMissing(operation: operation, path: output)
            case .directory, .other: throw .declaredOutputNotAFile(operation: operation, path: output)
            }
        }
        return files
    }

    /// Removes every output that exists and is not a directory.
    /// - Returns: a message for each one that could not be removed.
    func removeOutputs() -> [String] {
        zip(outputs, outputPaths).compactMap { output, path in
            guard FileKind(at: path, followingLinks: false) != .directory, unlink(path) != 0, errno != ENOENT else {
                return nil
            }
            return "cannot remove declared output '\(output)': \(FileIO.lastErrorText())"
        }
    }
}
