import Foundation

/// What decides an `exec`'s result besides its parameters and environment: the program it runs
/// and the contents of its declared inputs. Files it reads without declaring them are not seen.
extension ExecOperation: CacheableAction {
    var cacheVersion: Int { 1 }

    /// The grace period only matters once the program is being stopped.
    var unkeyedParameters: Set<String> { ["grace_period"] }

    /// `program`: the program's absolute path and the digest of its file; `file.<path>`: the
    /// digest of each file the inputs name (as written, patterns expanded).
    /// - Throws: `ChildProcessError.programNotFound` when there is no such program,
    ///   `OperationError.declaredInputMissing` or `.declaredInputNotAFile` for a plain input path
    ///   that names no file, whatever `files` throws for a file it cannot read.
    func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws {
        let (program, inputs) = try await BlockingIO.run { [self] in (try programPath(), try declaredFiles.inputFiles()) }
        key.add("program", "\(program) \(try await files.digest(ofFile: program))")
        for input in inputs {
            key.add("file.\(input)", try await files.digest(ofFile: PathResolver.resolve(input, in: declaredFiles.directory)).description)
        }
    }

    /// The declared outputs.
    var outputFiles: [String] { declaredFiles.outputPaths }

    /// The absolute path of the program `command[0]` starts: found on the PATH of its environment
    /// as `ChildProcesses` finds it; a relative result (a name with a "/", a relative PATH entry)
    /// starts from the working directory. Blocking.
    /// - Throws: `ChildProcessError.programNotFound`.
    private func programPath() throws -> String {
        let name = command[0]
        guard let found = ProgramLocator.locate(name, searchPath: environment["PATH"]) else {
            throw ChildProcessError.programNotFound(name)
        }
        let path = PathResolver.resolve(found, in: workingDirectory ?? FileManager.default.currentDirectoryPath)
        guard FileKind(at: path) == .regular else { throw ChildProcessError.programNotFound(name) }
        return path
    }
}
