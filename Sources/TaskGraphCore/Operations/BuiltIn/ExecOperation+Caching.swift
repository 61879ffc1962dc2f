import Foundation

/// What decides an `exec`'s result besides its parameters and environment: the program it runs
/// and the contents of its declared inputs. Files it reads without declaring them are not seen.
extension ExecOperation: BuiltInAction, FileReadingAction {
    /// 3: `stdin:` may give the program its input's bytes (a dependency's result, so in the key
    /// already); without `cwd:` the program runs in the pipeline file's directory (before, in the
    /// current directory, which no key named); `cwd:` enters the key as written, relative to
    /// that directory, like the declared files. 2: the result holds the digests of the declared
    /// outputs.
    var cacheVersion: Int { 3 }

    /// The grace period only matters once the program is being stopped.
    var unkeyedParameters: Set<String> { ["grace_period"] }

    /// `program`: the program's path (relative to the pipeline file's directory when beneath
    /// it, else absolute) and the digest of its file; `file.<path>`: the
    /// digest of each file the inputs name (as written, patterns expanded). One trip to a
    /// blocking thread; the program is found once per run (`RunResources.programs`).
    /// - Throws: `ChildProcessError.programNotFound` when there is no such program,
    ///   `OperationError.declaredInputMissing` or `.declaredInputNotAFile` for a plain input path
    ///   that names no file, whatever `files` throws for a file it cannot read.
    func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws {
        // Read here: the task-local is not visible on the blocking thread.
        let programs = RunResources.current?.programs ?? ProgramLocations()
        let added = try await BlockingIO.run { [self] () throws -> [(name: String, value: String)] in
            let name = command[0]
            guard
                let program = programs.path(
                    of: name, searchPath: environment["PATH"], workingDirectory: workingDirectory)
            else { throw ChildProcessError.programMissing(name, in: workingDirectory) }
            let inputs = try declaredFiles.inputFiles()
            // Which files a pattern matches, and a program found through another PATH than the
            // one taskgraph was started with, show in no `stat` it can compare later.
            if declaredFiles.hasPatterns || (!name.contains("/") && environment["PATH"] != Self.startingSearchPath) {
                files.noteUncheckableDependency()
            }
            let directory = PathResolver.normalized(declaredFiles.directory) + "/"
            let keyedProgram = program.hasPrefix(directory) ? String(program.dropFirst(directory.count)) : program
            var added = [("program", "\(keyedProgram) \(try files.blockingDigest(ofFile: program))")]
            let paths = inputs.map { PathResolver.resolve($0, in: declaredFiles.directory) }
            added.reserveCapacity(1 + inputs.count)
            for (input, digest) in zip(inputs, try files.blockingDigests(ofFiles: paths)) {
                added.append(("file.\(input)", digest.description))
            }
            return added
        }
        key.reserveCapacity(key.components.count + added.count)
        for (name, value) in added { key.add(name, value) }
    }

    /// The `PATH` taskgraph was started with.
    private static let startingSearchPath: String? = getenv("PATH").map { String(cString: $0) }

    /// The declared inputs, patterns included.
    var filesRead: [String] { declaredFiles.inputs.map { PathResolver.resolve($0, in: declaredFiles.directory) } }
    var filesReadParameter: String { "inputs" }

    /// The declared outputs.
    var outputFiles: [String] { declaredFiles.outputPaths }

    /// An `exec` that declares neither inputs nor outputs: a deploy, a notification, a test run.
    var alwaysRunReason: String? {
        declaredFiles.inputs.isEmpty && declaredFiles.outputs.isEmpty
            ? "exec declares no inputs or outputs; set cache: true to reuse it" : nil
    }
}
