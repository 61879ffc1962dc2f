/// Which lines of `exec` programs a run streams to its event sinks as they are written
/// (`taskgraph run --logs`): every line of standard error, and of standard output unless an
/// operation that needs the program consumes that output as data. A run without one streams
/// nothing.
public struct StreamedOutput: Sendable {
    /// The ids of the instances whose standard output a dependent consumes.
    public var consumedOutputs: Set<String>

    /// Streams every line but the standard output of `consumedOutputs`.
    public init(consumedOutputs: Set<String> = []) {
        self.consumedOutputs = consumedOutputs
    }

    /// Streams every line but the standard output a dependent of `graph` consumes: one whose
    /// operation type (in `registry`), with its parameters, accepts the bytes it produces, and
    /// that does not choose another dependency with `input:`.
    public init(graph: ExecutionGraph, registry: OperationRegistry) {
        var consumed = Set<String>()
        for node in graph.nodes {
            guard let type = registry[node.type], type.input(for: node.parameters).acceptedKinds.contains(.bytes)
            else { continue }
            for dependency in node.dependencies {
                let id = graph.nodes[dependency].id
                if node.preferredInputID == nil || node.preferredInputID == id { consumed.insert(id) }
            }
        }
        consumedOutputs = consumed
    }

    /// Whether the standard output of instance `id` is streamed.
    func streamsStandardOutput(of id: String) -> Bool { !consumedOutputs.contains(id) }
}
