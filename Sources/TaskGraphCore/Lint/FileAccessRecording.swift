import Foundation

/// The trace file of one traced `exec` attempt: an empty file in the temporary directory, named
/// to the program in `TASKGRAPH_FILE_TRACE` beside the tracer in `LD_PRELOAD`, read back and
/// removed when the program has ended. It is one of the run's temporary files, so a second
/// Ctrl-C removes it too.
struct FileAccessRecording: Sendable {
    /// The trace file's path.
    let path: String
    private let temporaryFiles: TemporaryFiles

    /// Creates the trace file. Blocks: call it on a blocking thread.
    /// - Throws: `FileError.writeFailed`, `CancellationError` after the run abandoned its
    ///   temporary files.
    init(temporaryFiles: TemporaryFiles) throws {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let (descriptor, path) = try temporaryFiles.create(
            beside: PathResolver.resolve("taskgraph-file-trace", in: directory))
        close(descriptor)
        self.path = path
        self.temporaryFiles = temporaryFiles
    }

    /// `environment` with the tracer preloaded (before any library it already preloads) and
    /// the trace file named.
    func environment(_ environment: [String: String], tracer: String) -> [String: String] {
        var traced = environment
        traced["LD_PRELOAD"] = [tracer, environment["LD_PRELOAD"]].compactMap { $0 }.joined(separator: " ")
        traced[FileAccessLint.traceVariable] = path
        return traced
    }

    /// The records, and the file removed. Blocks: call it on a blocking thread.
    /// - Throws: `FileError.readFailed`, `.fileTooLarge` (above 256 MiB of records).
    func finish() throws -> Data {
        defer { discard() }
        return try FileIO.read(path)
    }

    /// Removes the trace file.
    func discard() {
        temporaryFiles.discard(path)
    }
}
