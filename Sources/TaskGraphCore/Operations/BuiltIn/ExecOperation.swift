import Foundation

/// `exec`: runs a program (no shell unless the command asks for one), capturing its output.
struct ExecOperation: TaskAction {
    static let type = OperationType(
        name: "exec",
        summary: "Runs a program; its standard output is the result. Non-zero exit fails with the tail of stderr.",
        parameters: [
            ParameterSpec("command", .stringList(minimumCount: 1), "Program and arguments, e.g. [convert, in.png, out.jpg]; no shell unless you write [sh, -c, \"...\"]."),
            ParameterSpec("env", .stringMap, optional: true, "Extra environment variables for the program."),
            ParameterSpec("inherit_env", .boolean, default: .boolean(true), "Whether the program sees taskgraph's own environment."),
            ParameterSpec("cwd", .inputPath, optional: true, "Working directory, relative to the pipeline file (default: the current directory)."),
            ParameterSpec("grace_period", .duration, default: .duration(.seconds(2)), "On cancellation, time between SIGTERM and SIGKILL to the program's process group."),
        ],
        produces: [.bytes],
        makeAction: { setup in
            let parameters = setup.parameters
            var environment = parameters.boolean("inherit_env") == false ? [:] : setup.environment
            environment.merge(parameters.map("env") ?? [:]) { _, new in new }
            return ExecOperation(
                command: parameters.list("command") ?? [],
                environment: environment,
                workingDirectory: parameters.string("cwd").map { PathResolver.resolve($0, in: setup.pipelineDirectory) },
                gracePeriod: parameters.duration("grace_period") ?? .seconds(2))
        })

    let command: [String]
    let environment: [String: String]
    let workingDirectory: String?
    let gracePeriod: Duration

    func run(in context: TaskContext) async throws -> any Artifact {
        let result = try await context.resources.childProcesses.run(
            arguments: command, environment: environment, workingDirectory: workingDirectory,
            gracePeriod: gracePeriod)
        let output = ProcessOutput(result)
        guard result.status == .exited(0) else {
            throw OperationError.processFailed(
                program: command[0], status: output.statusText, stderrTail: output.errorTail(lines: 3))
        }
        return output
    }
}

/// What a finished `exec` left: its standard output as bytes, its status and stderr tail.
public struct ProcessOutput: BytesProvider, Codable, Hashable {
    /// The program's standard output.
    public var data: Data
    /// `exited with status 3`, `was killed by signal 9`.
    public var statusText: String
    /// The last bytes of its standard error.
    public var standardErrorTail: String

    init(_ result: ProcessResult) {
        data = Data(result.standardOutput)
        switch result.status {
        case .exited(let code): statusText = "exited with status \(code)"
        case .signalled(let signal): statusText = "was killed by signal \(signal)"
        }
        standardErrorTail = String(decoding: result.standardErrorTail, as: UTF8.self)
    }

    /// The last `lines` non-empty lines of standard error, joined with ` | `.
    public func errorTail(lines: Int) -> String {
        standardErrorTail.split(separator: "\n").suffix(lines)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " | ")
    }

    /// `exited with status 0, 12 B of output`.
    public var summary: String { "\(statusText), \(ByteCountText.format(data.count)) of output" }
}
