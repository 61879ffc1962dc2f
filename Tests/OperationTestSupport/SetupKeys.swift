import Foundation
import TaskGraphCore

/// The key of a node with `setup`, made by `registry`, as a run would compute it: its inputs'
/// results have the digests `inputs` gives, its files are hashed.
public func key(
    of setup: OperationSetup, registry: OperationRegistry, inputs: [(id: String, digest: ContentDigest)] = []
)
    async throws -> ContentDigest
{
    var graph = ExecutionGraph()
    try graph.add(setup.id, action: registry.makeAction(for: setup))
    return try await key(of: graph.nodes[0], inputs: inputs)
}

/// The key of `node` as a run would compute it: its inputs' results have the digests `inputs`
/// gives, its files are hashed.
public func key(of node: ExecutionGraph.Node, inputs: [(id: String, digest: ContentDigest)] = [])
    async throws -> ContentDigest
{
    guard let action = node.action as? any CacheableAction else { throw NotCacheable(type: node.type) }
    return try await KeyComponents.of(node, action: action, inputs: inputs, files: HashingFileDigests()).key
}

/// The key of every cacheable node of `graph`, by id, each as if its inputs' results were the
/// same.
public func keys(of graph: ExecutionGraph) async throws -> [String: ContentDigest] {
    var keys: [String: ContentDigest] = [:]
    for node in graph.nodes where node.action is any CacheableAction { keys[node.id] = try await key(of: node) }
    return keys
}

/// An operation type whose action is not `CacheableAction`.
public struct NotCacheable: Error {
    /// The type's name.
    public var type: String
}

/// The keyed parameters of the types of `registry` whose change leaves the key as it was (none
/// should), as `type.parameter`: each is changed alone from a setup of `base` values (a type's
/// required parameters, and what its key needs to be computed) and defaults, in `directory`.
/// A change its type refuses (two parameters that exclude each other) is left out.
public func parametersLeavingTheKey(
    registry: OperationRegistry, base: [String: [String: ParameterValue]], directory: String
) async throws -> [String] {
    var unchanged: [String] = []
    for type in registry.sorted {
        func setup(_ parameters: [String: ParameterValue]) -> OperationSetup {
            OperationSetup(
                type: type.name, id: "op", parameters: Parameters(parameters),
                pipelineDirectory: directory, outputDirectory: directory)
        }
        let values = base[type.name] ?? [:]
        let made = try registry.makeAction(for: setup(values))
        guard let action = made.action as? any CacheableAction, action.constantResult == nil else { continue }
        let original = try await key(of: made.setup, registry: registry)
        for parameter in type.parameters where !action.unkeyedParameters.contains(parameter.name) {
            var changed = made.setup.parameters.values
            changed[parameter.name] = otherValue(of: parameter.type, than: changed[parameter.name])
            guard (try? registry.makeAction(for: setup(changed))) != nil else { continue }
            if try await key(of: setup(changed), registry: registry) == original {
                unchanged.append("\(type.name).\(parameter.name)")
            }
        }
    }
    return unchanged
}

/// A value of `type` other than `value` (or any value of it, for nil), for changing one
/// parameter at a time. Paths name `path`-like files that need not exist; lists grow by a
/// pattern that matches nothing.
public func otherValue(of type: ParameterType, than value: ParameterValue?) -> ParameterValue {
    switch type {
    case .string: .string((value.map(\.description) ?? "") + "x")
    case .integer(let range), .namedInteger(_, let range):
        .integer(value == .integer(range.lowerBound) ? range.lowerBound + 1 : range.lowerBound)
    case .number(let range):
        .number(value == .number(range.lowerBound) ? (range.lowerBound + range.upperBound) / 2 : range.lowerBound)
    case .boolean: .boolean(value != .boolean(true))
    case .duration: .duration(value == .duration(.seconds(7)) ? .seconds(8) : .seconds(7))
    case .choice(let words): .string(words.first { .string($0) != value } ?? words[0])
    case .stringList: .list((value.flatMap { if case .list(let list) = $0 { list } else { nil } } ?? []) + ["none-*.x"])
    case .stringMap:
        .map((value.flatMap { if case .map(let map) = $0 { map } else { nil } } ?? [:]).merging(["EXTRA": "1"]) { $1 })
    case .outputPath: .string(value == .string("other.out") ? "another.out" : "other.out")
    case .inputPath: .string(value == .string("other.in") ? "another.in" : "other.in")
    }
}

/// The graph planned from a pipeline file `chain.yaml` in `directory` holding `text`: what a
/// test compares a graph built in Swift with.
public func plannedGraph(
    _ text: String, in directory: String, registry: OperationRegistry, environment: [String: String] = [:],
    outputDirectory: String? = nil
) throws -> ExecutionGraph {
    let options = PipelineOptions(environment: environment, outputDirectory: outputDirectory, registry: registry)
    return try Pipeline.load(text: text, file: directory + "/chain.yaml", options: options).graph
}
