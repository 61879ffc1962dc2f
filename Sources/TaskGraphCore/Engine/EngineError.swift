/// Failures the engine itself produces while running a node.
public enum EngineError: Error, Equatable, Sendable {
    /// An attempt ran past the node's `timeout`.
    case timedOut(Duration)
    /// A result a node needs is neither in memory nor in the store (it could not be recorded).
    case resultUnavailable(String)
}

extension EngineError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .timedOut(let limit): "timed out after \(DurationParser.format(limit))"
        case .resultUnavailable(let id): "the result of '\(id)' is no longer available; run again"
        }
    }
}

/// An error that knows whether trying again could help (e.g. HTTP 503 yes, HTTP 404 no).
/// Errors that do not conform are retried when the node allows retries.
public protocol RetryClassifying: Error {
    /// Whether another attempt could succeed.
    var isRetryable: Bool { get }
    /// The least time to wait before the next attempt, when the failure says (HTTP `Retry-After`).
    var retryAfter: Duration? { get }
}

extension RetryClassifying {
    /// No advice: the engine's backoff alone decides.
    public var retryAfter: Duration? { nil }
}
