/// Whether an operation instance's result came from the store, and why it did or did not: the
/// fixed list of reasons `--explain`, the summary and the event stream share.
public struct CacheDecision: Hashable, Sendable, Codable {
    /// Whether the result was reused.
    public enum Status: String, Hashable, Sendable, Codable {
        /// Reused from the store: the operation did not run.
        case hit
        /// The operation ran.
        case miss
    }

    /// Why, from a fixed list; the raw value is what events and `--explain` print.
    public enum Reason: String, CaseIterable, Hashable, Sendable, Codable {
        /// A hit: nothing it depends on changed.
        case unchanged
        /// A hit whose output file was missing or changed and was restored from the store.
        case outputRestored = "output missing"
        /// No earlier run of this operation with this identity is in the store.
        case new
        /// A parameter's value changed (detail: `intensity 0.8 -> 0.7`).
        case parameterChanged = "parameter changed"
        /// The result of an operation it needs changed (detail: that operation's id).
        case inputChanged = "input changed"
        /// A file it reads changed (detail: the path).
        case fileChanged = "file changed"
        /// An `exec`'s command line or working directory changed.
        case commandChanged = "command changed"
        /// The program an `exec` runs changed (detail: its path).
        case programChanged = "program changed"
        /// A variable of its declared environment changed (detail: the name).
        case environmentChanged = "environment changed"
        /// Its operation type's implementation version changed.
        case versionChanged = "operation version changed"
        /// The stored result was damaged; it was removed and the operation ran.
        case corrupt = "corrupt cache entry"
        /// Caching is off for it (`cache: false`, `--no-cache`).
        case disabled = "cache disabled"
        /// `--force` named it or an operation it needs.
        case forced
        /// The remote source answered with new content (a download's revalidation).
        case remoteChanged = "remote content changed"
        /// Its action cannot be cached (made from a closure, or not `CacheableAction`).
        case notCacheable = "not cacheable"
        /// Its record was a hit but its result was left out of the store (`StoragePolicy`), and
        /// an operation that ran needed it: it ran again (detail: `not stored (recomputing
        /// takes 0.12 s, under 10× writing 31.1 MB)`).
        case recomputed
    }

    /// Hit or miss.
    public var status: Status
    /// Why.
    public var reason: Reason
    /// What changed, e.g. `intensity 0.8 -> 0.7`, `tilt[lake]`, `photos/lake.jpg`; may be empty.
    public var detail: String
    /// For `input changed`, the change that started it, e.g.
    /// `parameter changed: blur_radius 8 -> 6 in tilt[lake]`.
    public var rootCause: String?

    /// Creates a decision.
    public init(_ status: Status, _ reason: Reason, detail: String = "", rootCause: String? = nil) {
        self.status = status
        self.reason = reason
        self.detail = detail
        self.rootCause = rootCause
    }

    /// The reason with its detail: `parameter changed: intensity 0.8 -> 0.7`.
    public var explanation: String {
        detail.isEmpty ? reason.rawValue : "\(reason.rawValue): \(detail)"
    }

    /// The explanation followed by the root cause: `input changed: tilt[lake] <- parameter
    /// changed: blur_radius 8 -> 6 in tilt[lake]`.
    public var fullExplanation: String {
        rootCause.map { "\(explanation) <- \($0)" } ?? explanation
    }
}
