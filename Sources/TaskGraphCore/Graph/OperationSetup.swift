import Foundation

/// One operation instance, fully described as plain data: everything its action is made from.
///
/// The planner makes one per instance and the `ExecutionGraph` node keeps it, so the same action
/// can be made again elsewhere (`OperationRegistry.makeAction(for:)`, e.g. on a cluster worker)
/// and a cache can key results on it. Making the action reads nothing else of the process: no
/// environment variable, no current directory (an `exec` without `cwd` runs in
/// `pipelineDirectory`).
///
/// The setup may hold secrets (a key named by `key_env`, a passed-through token): never log it.
public struct OperationSetup: Hashable, Sendable, Codable {
    /// The operation type name, e.g. `exec`.
    public var type: String
    /// The instance id, e.g. `save[lake]`.
    public var id: String
    /// Its checked parameters, defaults filled in; paths as written, relative to
    /// `pipelineDirectory` (inputs) or `outputDirectory` (outputs).
    public var parameters: Parameters
    /// The ids of the instances it needs, in declared order.
    public var dependencies: [String]
    /// The instance chosen with `input:`, if any.
    public var preferredInput: String?
    /// The variables of the pipeline's environment this instance reads, as the type declares
    /// them (`OperationType.environmentNames`); a declared variable that is not set is absent.
    public var environment: [String: String]
    /// The directory of the pipeline file: relative input paths start here.
    public var pipelineDirectory: String
    /// The run's output directory: relative output paths start here.
    public var outputDirectory: String

    /// Creates a setup.
    public init(
        type: String, id: String, parameters: Parameters, dependencies: [String] = [],
        preferredInput: String? = nil, environment: [String: String] = [:],
        pipelineDirectory: String, outputDirectory: String
    ) {
        self.type = type
        self.id = id
        self.parameters = parameters
        self.dependencies = dependencies
        self.preferredInput = preferredInput
        self.environment = environment
        self.pipelineDirectory = pipelineDirectory
        self.outputDirectory = outputDirectory
    }

    /// The canonical JSON encoding: keys sorted at every level, so equal setups always give
    /// byte-identical data (cache keys, comparisons across processes).
    /// - Throws: `EncodingError` if a value cannot be encoded.
    public func canonicalJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
