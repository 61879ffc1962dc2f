import Foundation

import TaskGraphCore

/// Runs one operation of `type` outside the engine, as the planner would set it up.
/// - Parameters:
///   - parameters: the checked parameters; defaults are filled in from the type.
///   - input: the bytes its one dependency produced, if any.
///   - directory: the pipeline and output directory.
public func runOperation(
    _ type: OperationType, _ parameters: [String: ParameterValue], input: Data? = nil,
    directory: String = FileManager.default.temporaryDirectory.path,
    progress: (@Sendable (ProgressUpdate) -> Void)? = nil
) async throws -> any Artifact {
    var values = parameters
    for parameter in type.parameters where values[parameter.name] == nil {
        values[parameter.name] = parameter.defaultValue
    }
    let setup = OperationSetup(
        id: "op", parameters: Parameters(values), pipelineDirectory: directory, outputDirectory: directory)
    let action = try type.makeAction(setup)
    let inputs = input.map { [TaskContext.Input(id: "in", artifact: BytesArtifact($0))] } ?? []
    return try await action.run(in: TaskContext(id: "op", inputs: inputs, progressHandler: progress))
}

/// A new empty directory for one test.
public func makeScratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taskgraph-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
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
