import Foundation

/// `run --lint`: the program runs with the file-access tracer preloaded, and what it read or
/// wrote under the pipeline or output directory without declaring it is reported afterwards.
extension ExecOperation {
    /// Creates the trace file of one attempt.
    /// - Throws: `OperationError.writeFailed` when the temporary directory takes no file.
    func startRecording(_ context: TaskContext) async throws -> FileAccessRecording {
        let temporaryFiles = context.resources.temporaryFiles
        return try await OperationError.reportingFileErrors {
            try await context.resources.blockingIO.run { try FileAccessRecording(temporaryFiles: temporaryFiles) }
        }
    }

    /// Removes the trace file of an attempt that failed, even when the task is cancelled.
    func discard(_ recording: FileAccessRecording?, _ context: TaskContext) async {
        guard let recording else { return }
        await context.resources.blockingIO.runIgnoringCancellation { recording.discard() }
    }

    /// Reads the trace of a program that succeeded and reports each undeclared access: a
    /// warning event each with `--lint`, a failure with all of them with `--lint=error`.
    /// - Throws: `OperationError.undeclaredFileAccess` (error mode), what reading the trace throws.
    func checkFileAccesses(_ recording: FileAccessRecording, lint: FileAccessLint, context: TaskContext) async throws {
        let produced = context.inputs.flatMap { input in
            ((input.result as? any FileProvider).map { [$0.path] } ?? [])
                + ((input.result as? any ProducedFilesProvider)?.producedFiles ?? [])
                .map { PathResolver.resolve($0, in: declaredFiles.directory) }
        }
        let programs = context.resources.programs
        let accesses = try await OperationError.reportingFileErrors {
            try await context.resources.blockingIO.run { [self] in
                let records = try recording.finish()
                let program = programs.path(
                    of: command[0], searchPath: environment["PATH"], workingDirectory: workingDirectory)
                return try undeclaredAccesses(
                    in: records, dependencyFiles: produced, ignoring: [recording.path] + (program.map { [$0] } ?? []))
            }
        }
        guard !accesses.isEmpty else { return }
        let messages = accesses.messages(operation: context.id, declarations: lint.declarations(of: context.id))
        switch lint.mode {
        case .warn: messages.forEach(context.warn)
        case .error: throw OperationError.undeclaredFileAccess(messages)
        }
    }

    /// What `records` show the program did beyond its declarations. Blocks (`realpath`, `stat`).
    /// - Parameters:
    ///   - dependencyFiles: the files of the results of the operations it needs, which it may read.
    ///   - ignoring: paths never reported (the program, the trace file).
    /// - Throws: what expanding the declared inputs throws.
    func undeclaredAccesses(in records: Data, dependencyFiles: [String], ignoring: [String]) throws
        -> UndeclaredFileAccesses
    {
        let canonical = FileAccessTrace.canonicalPath
        let trace = FileAccessTrace(records: records, canonical: canonical)
        let outputs = Set(declaredFiles.outputPaths.map(canonical))
        let inputs = try declaredFiles.inputFiles().map {
            canonical(PathResolver.resolve($0, in: declaredFiles.directory))
        }
        let rules = UndeclaredFileAccesses.Rules(
            pipelineDirectory: canonical(declaredFiles.directory), outputDirectory: canonical(outputDirectory),
            readable: outputs.union(inputs).union(dependencyFiles.map(canonical)), writable: outputs,
            ignored: Set(ignoring.map(canonical)))
        return UndeclaredFileAccesses(trace, rules: rules) { FileKind(at: $0) == .directory }
    }
}
