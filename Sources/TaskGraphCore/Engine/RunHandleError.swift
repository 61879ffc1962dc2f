/// Why `RunHandle.add` could not add nodes to a run.
public enum RunHandleError: Error, Equatable, Sendable {
    /// No run is under way: it has not started, or it has ended (every node ended, or it was
    /// cancelled).
    case runEnded
    /// A node with this id is already in the run (or twice in the batch).
    case duplicateID(String)
    /// This node needs an id that is neither in the run nor earlier in the batch.
    case unknownDependency(of: String)
    /// This node, made to need added nodes, is already ready or has started.
    case alreadyReady(String)
    /// This node ended and its result was let go: a node added now cannot take it.
    case resultUnavailable(String)
}

extension RunHandleError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .runEnded: "the run is not under way"
        case .duplicateID(let id): "the run already has a node '\(id)'"
        case .unknownDependency(let id): "'\(id)' needs a node the run does not have"
        case .alreadyReady(let id): "'\(id)' is ready or has started: it cannot need more nodes"
        case .resultUnavailable(let id): "the result of '\(id)' is no longer held: a node added now cannot need it"
        }
    }
}
