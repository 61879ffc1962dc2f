import Foundation

/// `exec`: runs a program (no shell unless the command asks for one), capturing its output; its
/// result is that output and the digests of the files it declares in `outputs:`.
///
/// The program's environment is declared, never inherited whole: `env:`, over the variables of
/// `passedThroughNames` and `env_passthrough` that the pipeline's environment sets. The files it
/// reads and writes may be declared too (`ExecDeclaredFiles`).
struct ExecOperation: TaskAction {
    /// The variables of the pipeline's environment every program sees when they are set: enough
    /// to find programs, locate home and temporary directories, and read text and times.
    static let passedThroughNames = ["HOME", "LANG", "LC_ALL", "LC_CTYPE", "PATH", "TERM", "TMPDIR", "TZ", "USER"]

    /// Those of `passedThroughNames` that say who runs the program and where, not what it
    /// computes: passed but not keyed, so another user's or machine's run shares results. A
    /// step that depends on one names it in `env_passthrough` (or sets it with `env:`).
    static let unkeyedNames: Set<String> = ["HOME", "TERM", "TMPDIR", "USER"]

    static let type = OperationType(
        name: "exec",
        summary: "Runs a program; its standard output is the result. Non-zero exit fails with the tail of stderr.",
        parameters: [
            ParameterSpec(
                "command", .stringList(minimumCount: 1),
                "Program and arguments, e.g. [convert, in.png, out.jpg]; no shell unless you write [sh, -c, \"...\"]."),
            ParameterSpec(
                "env", .stringMap, optional: true,
                "Environment variables for the program; they override passed-through ones."),
            ParameterSpec(
                "env_passthrough", .stringList(minimumCount: 0), optional: true,
                "More variables of taskgraph's environment for the program, besides "
                    + "\(passedThroughNames.joined(separator: ", ")); one that is not set stays unset."
            ),
            ParameterSpec(
                "cwd", .inputPath, optional: true,
                "Working directory, relative to the pipeline file (default: the pipeline file's directory)."),
            ParameterSpec(
                "inputs", .stringList(minimumCount: 0), optional: true,
                "Files the program reads, relative to the pipeline file; wildcards *, ?, [...] (never matching a "
                    + "leading dot) and ** (any depth) allowed. Their contents are part of the cache key; a path "
                    + "without wildcards must exist."
            ),
            ParameterSpec(
                "outputs", .stringList(minimumCount: 0), optional: true,
                "Files the program writes, relative to the pipeline file and inside its directory. Each must exist "
                    + "when it succeeds; all are removed when it fails, times out or is cancelled; cached with "
                    + "its result."
            ),
            ParameterSpec(
                "grace_period", .duration, default: .duration(.seconds(2)),
                "On cancellation, time between SIGTERM and SIGKILL to the program's process group."),
            ParameterSpec(
                "stdin", .boolean, optional: true,
                "Give the program its input's bytes on standard input (the 'input:' dependency, or the one that "
                    + "provides bytes; an image encoded in its format); otherwise it reads /dev/null."
            ),
        ],
        removedParameters: [
            "inherit_env": "the program sees only 'env' and \(passedThroughNames.joined(separator: ", ")) "
                + "from taskgraph's environment; name any other variable it needs in 'env_passthrough'"
        ],
        inputSwitch: ("stdin", .one(of: [.bytes, .image])),
        produces: [.bytes],
        environmentNames: { parameters in
            parameters.list("env_passthrough").map { passedThroughNames + $0 } ?? passedThroughNames
        },
        makeAction: { setup in
            let parameters = setup.parameters
            let variables = parameters.map("env") ?? [:]
            let mistakes =
                variables.keys.sorted().compactMap { name in
                    nameMistake(name, parameter: "env").map {
                        InvalidParameterEntries.Entry(parameter: "env", position: .key(name), error: $0)
                    }
                }
                + (parameters.list("env_passthrough") ?? []).enumerated().compactMap { index, name in
                    nameMistake(name, parameter: "env_passthrough")
                        .map {
                            InvalidParameterEntries.Entry(
                                parameter: "env_passthrough", position: .index(index), error: $0)
                        }
                }
                + ExecDeclaredFiles.mistakes(
                    inputs: parameters.list("inputs") ?? [], outputs: parameters.list("outputs") ?? [])
            guard mistakes.isEmpty else { throw InvalidParameterEntries(mistakes) }
            return ExecOperation(
                command: parameters.list("command") ?? [],
                environment: setup.environment.merging(variables) { _, new in new },
                unkeyedEnvironment: unkeyedNames.subtracting(parameters.list("env_passthrough") ?? []),
                workingDirectory: parameters.string("cwd").map { PathResolver.resolve($0, in: setup.pipelineDirectory) }
                    ?? setup.pipelineDirectory,
                outputDirectory: setup.outputDirectory,
                gracePeriod: parameters.duration("grace_period") ?? .seconds(2),
                readsStandardInput: parameters.boolean("stdin") ?? false,
                declaredFiles: try ExecDeclaredFiles(
                    operation: setup.id, directory: setup.pipelineDirectory,
                    inputs: parameters.list("inputs") ?? [], outputs: parameters.list("outputs") ?? []))
        })

    /// Why `name` (from `parameter`) cannot name an environment variable, or nil when it can.
    private static func nameMistake(_ name: String, parameter: String) -> OperationError? {
        name.isEmpty || name.contains("=") || name.contains("\0")
            ? .invalidEnvironmentName(parameter: parameter, name: name) : nil
    }

    let command: [String]
    let environment: [String: String]
    /// The variables of `unkeyedNames` not named in `env_passthrough`.
    let unkeyedEnvironment: Set<String>
    /// `cwd:`, by default the pipeline file's directory, where `inputs:` and `outputs:` are too.
    let workingDirectory: String
    /// The run's output directory: with `run --lint`, files it writes there must be declared too.
    let outputDirectory: String
    let gracePeriod: Duration
    /// `stdin: true`: the program reads its input's bytes.
    let readsStandardInput: Bool
    let declaredFiles: ExecDeclaredFiles

    func run(in context: TaskContext) async throws -> any OperationResult {
        // With `run --lint`, the program runs under the file-access tracer (ExecOperation+Lint).
        let lint = context.resources.fileAccessLint
        let recording = lint == nil ? nil : try await startRecording(context)
        let childEnvironment =
            if let lint, let recording {
                recording.environment(environment, tracer: lint.tracerLibrary)
            } else {
                environment
            }
        let result: ProcessResult
        let splitter = context.resources.streamedOutput.map { streamed in
            OutputLineSplitter(
                reportsStandardOutput: streamed.streamsStandardOutput(of: context.id), emit: context.reportOutput)
        }
        defer { splitter?.finish() }
        do {
            // (The bytes are read before the program starts, so a failure leaves nothing to stop.)
            let standardInput = readsStandardInput ? try await context.input((any BytesProvider).self).data : nil
            result = try await context.resources.childProcesses.run(
                arguments: command, environment: childEnvironment, workingDirectory: workingDirectory,
                gracePeriod: gracePeriod, standardInput: standardInput, observer: splitter.map { $0.take })
        } catch {
            // Cancelled (Ctrl-C, a timeout) or never started: `run` returns only once the
            // child's whole process group is dead, so nothing writes the outputs any more.
            await discard(recording, context)
            await removeOutputs(context)
            throw error
        }
        do {
            guard result.status == .exited(0) else {
                let output = ProcessOutput(result)
                throw OperationError.processFailed(
                    program: command[0], status: output.statusText, stderrTail: output.errorTail(lines: 3))
            }
            guard !result.standardOutputTruncated else {
                throw OperationError.outputTooLarge(program: command[0], limit: ChildProcesses.defaultOutputLimit)
            }
            var files: [ProcessOutput.DeclaredFile] = []
            if !declaredFiles.outputs.isEmpty {
                let declaredFiles = declaredFiles
                files = try await context.resources.blockingIO.run { try declaredFiles.createdOutputs() }
            }
            if let lint, let recording { try await checkFileAccesses(recording, lint: lint, context: context) }
            return ProcessOutput(result, files: files)
        } catch {
            await discard(recording, context)
            await removeOutputs(context)
            throw error
        }
    }

    /// Removes the declared outputs of a failed run, even when the task is cancelled; what cannot
    /// be removed is logged.
    private func removeOutputs(_ context: TaskContext) async {
        guard !declaredFiles.outputs.isEmpty else { return }
        let declaredFiles = declaredFiles
        let failures = await context.resources.blockingIO.runIgnoringCancellation { declaredFiles.removeOutputs() }
        failures.forEach(context.log)
    }
}
