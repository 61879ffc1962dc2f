import Foundation
import TaskGraphCore
import TestSupport

/// The action of one operation of `type`, made as the planner would set it up.
/// - Parameters:
///   - parameters: the checked parameters; defaults are filled in from the type.
///   - directory: the pipeline and output directory.
///   - environment: the pipeline's environment; the setup keeps what the type declares it reads.
public func makeOperationAction(
    _ type: OperationType, _ parameters: [String: ParameterValue],
    directory: String = FileManager.default.temporaryDirectory.path, environment: [String: String] = [:]
) throws -> any TaskAction {
    var values = parameters
    for parameter in type.parameters where values[parameter.name] == nil {
        values[parameter.name] = parameter.defaultValue
    }
    let checked = Parameters(values)
    let setup = OperationSetup(
        type: type.name, id: "op", parameters: checked,
        environment: type.declaredEnvironment(for: checked, in: environment),
        pipelineDirectory: directory, outputDirectory: directory)
    return try type.makeAction(setup)
}

/// Runs one operation of `type` outside the engine, as the planner would set it up
/// (`makeOperationAction`), with id `op`.
/// - Parameter input: the bytes its one dependency produced, if any.
public func runOperation(
    _ type: OperationType, _ parameters: [String: ParameterValue], input: Data? = nil,
    directory: String = FileManager.default.temporaryDirectory.path, environment: [String: String] = [:],
    progress: (@Sendable (ProgressUpdate) -> Void)? = nil
) async throws -> any OperationResult {
    let action = try makeOperationAction(type, parameters, directory: directory, environment: environment)
    let inputs = input.map { [TaskContext.Input(id: "in", result: BytesResult($0))] } ?? []
    return try await action.run(in: TaskContext(id: "op", inputs: inputs, progressHandler: progress))
}

/// A new empty directory for one test.
public func makeScratchDirectory() throws -> URL {
    try ScratchDirectories.make("taskgraph-test")
}

extension Data {
    /// Bytes from hexadecimal text.
    public init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes)
    }

    /// Lowercase hexadecimal text.
    public var hex: String { map { String(format: "%02x", $0) }.joined() }
}

/// Runs `graph` on a fresh engine and returns the bytes node `id` ended with, as text; nil
/// unless it succeeded with bytes and nothing in the graph needs it.
public func outputText(of id: String, runningGraph graph: ExecutionGraph) async throws -> String? {
    let report = await Engine().run(graph)
    guard let bytes = report.finalResults[id] as? any BytesProvider else { return nil }
    return String(decoding: try await bytes.data, as: UTF8.self)
}
