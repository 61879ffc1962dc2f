/// `exec` in Swift: runs a program, keyed as the same `exec` in a pipeline file.
///
/// ```swift
/// let link = try Exec(command: ["cc", "-o", "bin/app", "obj/main.o"], inputs: ["obj/*.o"],
///                     outputs: ["bin/app"], directory: projectDirectory, environment: environment)
/// try graph.add("link", action: link, needs: [compile])
/// ```
public struct Exec: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// An `exec` with the parameters a pipeline file would give it; nil leaves one unset.
    /// - Parameters:
    ///   - directory: where it runs without `cwd`, and where its relative `inputs`, `outputs` and
    ///     `cwd` start (a pipeline file's directory).
    ///   - stdin: give the program the bytes of its input (a dependency's result) on standard
    ///     input.
    ///   - environment: the environment it is started from; only the variables `exec` passes
    ///     through (`PATH`, `LANG`, …, and `envPassthrough`) reach the program and its key.
    /// - Throws: `OperationError` with `validate`'s message for a value it does not accept.
    public init(
        command: [String], inputs: [String]? = nil, outputs: [String]? = nil, env: [String: String]? = nil,
        envPassthrough: [String]? = nil, cwd: String? = nil, gracePeriod: Duration? = nil, stdin: Bool? = nil,
        directory: String, environment: [String: String] = [:]
    ) throws {
        configured = try ExecOperation.type.configure(
            Parameters(setting: [
                "command": .list(command), "inputs": inputs.map(ParameterValue.list),
                "outputs": outputs.map(ParameterValue.list), "env": env.map(ParameterValue.map),
                "env_passthrough": envPassthrough.map(ParameterValue.list), "cwd": cwd.map(ParameterValue.string),
                "grace_period": gracePeriod.map(ParameterValue.duration), "stdin": stdin.map(ParameterValue.boolean),
            ]),
            pipelineDirectory: directory, environment: environment)
    }
}
