/// How one node of a run ended, with the details of its kind (`Kind` names the kinds).
public enum NodeOutcome: Hashable, Sendable, Codable {
    /// It ran and produced its result.
    case succeeded
    /// It did not run: its result was reused from an earlier run.
    case cached
    /// Its last attempt failed with this message.
    case failed(String)
    /// Its last attempt ran past its time limit.
    case timedOut(Duration)
    /// It was running when the run was cancelled.
    case cancelled
    /// It never ran because a node it needs (directly or not) failed; the id of that node.
    case skipped(because: String)
    /// It never ran because its `when:` rule was not met (`TriggerRule`); why, e.g.
    /// `when: failure, and nothing it needs failed`.
    case bypassed(String)
    /// It never started: the run was cancelled or stopped first.
    case notStarted

    /// Whether the node failed (including by timing out).
    public var isFailure: Bool { kind.isFailure }

    /// The one-line reason, empty for success.
    public var reason: String {
        switch self {
        case .succeeded, .cached, .cancelled, .notStarted: ""
        case .failed(let message): message
        case .timedOut(let limit): "timed out after \(DurationParser.format(limit))"
        case .skipped(let cause): "'\(cause)' failed"
        case .bypassed(let reason): reason
        }
    }
}
