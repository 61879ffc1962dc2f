/// Mistakes in a graph built in code.
public enum GraphError: Error, Equatable, Sendable {
    /// Two nodes were given the same id.
    case duplicateID(String)
    /// An id named in a request (e.g. `--only`) is not in the graph.
    case unknownID(String, suggestion: String?)
}

extension GraphError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .duplicateID(let id):
            "a node with id '\(id)' already exists"
        case .unknownID(let id, let suggestion):
            "no operation '\(id)' in the pipeline" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        }
    }
}
