extension NodeOutcome {
    /// What kind of end a node came to, without the details: the one vocabulary that counts,
    /// tables, logs, displays and the event stream share. Each kind has its label for people and
    /// its name in the event stream here and nowhere else.
    ///
    /// Every `switch` over kinds is exhaustive (no `default:`), so a new kind does not compile until every
    /// consumer handles it; the event stream documents it as a new event name (docs/events.md).
    public enum Kind: String, CaseIterable, Codable, Hashable, Sendable {
        // In the order totals are listed. The raw value is the event name.
        /// It ran and produced its result (event `succeeded`).
        case succeeded
        /// Its result was reused from an earlier run (event `cached`).
        case cached
        /// Its last attempt failed (event `failed`).
        case failed
        /// Its last attempt ran past its time limit (event `timed_out`).
        case timedOut = "timed_out"
        /// It was running when the run was cancelled (event `cancelled`).
        case cancelled
        /// It never ran because a node it needs failed (event `skipped`).
        case skipped
        /// It never ran because its `when:` rule was not met (event `bypassed`).
        case bypassed
        /// It never started: the run was cancelled or stopped first (event `not_started`).
        case notStarted = "not_started"

        /// The word tables, logs and displays show: `ok`, `cached`, `failed`, `timed out`,
        /// `cancelled`, `skipped`, `bypassed`, `not started`.
        public var label: String {
            switch self {
            case .succeeded: "ok"
            case .cached: "cached"
            case .failed: "failed"
            case .timedOut: "timed out"
            case .cancelled: "cancelled"
            case .skipped: "skipped"
            case .bypassed: "bypassed"
            case .notStarted: "not started"
            }
        }

        /// The `event` value of the event that ends a node this way: `succeeded`, `cached`,
        /// `failed`, `timed_out`, `cancelled`, `skipped`, `bypassed`, `not_started`.
        public var eventName: String { rawValue }

        /// The kind whose event is called `eventName`, if any.
        public init?(eventName: String) {
            self.init(rawValue: eventName)
        }

        /// Whether the node failed (including by timing out): its dependents are skipped and the
        /// run exits with status 1.
        public var isFailure: Bool {
            switch self {
            case .failed, .timedOut: true
            case .succeeded, .cached, .cancelled, .skipped, .bypassed, .notStarted: false
            }
        }

        /// Whether the node has its result: it ran, or reused a stored one.
        public var isSuccess: Bool {
            switch self {
            case .succeeded, .cached: true
            case .failed, .timedOut, .cancelled, .skipped, .bypassed, .notStarted: false
            }
        }
    }

    /// What kind of end this is.
    public var kind: Kind {
        switch self {
        case .succeeded: .succeeded
        case .cached: .cached
        case .failed: .failed
        case .timedOut: .timedOut
        case .cancelled: .cancelled
        case .skipped: .skipped
        case .bypassed: .bypassed
        case .notStarted: .notStarted
        }
    }
}
