import TaskGraphCore

/// A run as its event stream recorded it (`run --events`): what the HTML report draws. Built by
/// `RecordedRun.read(_:)` from the JSON Lines, so a report made during a run and one made later
/// from its event file are the same page.
public struct RecordedRun: Sendable {
    /// One operation of the run.
    public struct Operation: Sendable {
        /// The instance id, e.g. `tilt[lake]`.
        public var id: String
        /// The operation type.
        public var type: String
        /// The named pool it ran in, nil for the default pool.
        public var pool: String?
        /// The ids of the operations it needs.
        public var needs: [String] = []
        /// How it ended (`notStarted` until its final event is read).
        public var outcome: NodeOutcome.Kind = .notStarted
        /// Why it failed, timed out or was skipped (`NodeOutcome.reason`); empty otherwise.
        public var reason = ""
        /// The cache decision, e.g. `hit: unchanged` or `miss: parameter changed: intensity 0.8 -> 0.7`.
        public var cache = ""
        /// When it was queued (seconds since the run started).
        public var queued: Double?
        /// When its first attempt started.
        public var started: Double?
        /// When it ended.
        public var ended: Double?
        /// The worker lane of its last attempt.
        public var lane: Int?
        /// Attempts made.
        public var attempts = 0
        /// CPU time and memory, when measured.
        public var usage: ResourceUsage?

        /// Seconds between being queued and starting, when both are known.
        public var queueWait: Double? {
            guard let queued, let started else { return nil }
            return max(started - queued, 0)
        }

        /// Seconds from first start to end, when it ran.
        public var runTime: Double? {
            guard let started, let ended else { return nil }
            return max(ended - started, 0)
        }
    }

    /// The pipeline's name.
    public var pipeline = ""
    /// The command line, when recorded.
    public var command: [String] = []
    /// Wall-clock start and end (RFC 3339), empty when not recorded.
    public var startTimestamp = ""
    /// Wall-clock end (RFC 3339), empty when the run did not finish.
    public var endTimestamp = ""
    /// Wall time in seconds (from `run_finished`, else the last event's time).
    public var wallTime = 0.0
    /// Whether `run_finished` was recorded.
    public var finished = false
    /// Whether the run was cancelled (Ctrl-C, SIGTERM).
    public var cancelled = false
    /// Every operation, in the order the stream first named them.
    public var operations: [Operation] = []

    /// The exit status the run had: 1 when an operation failed, 0 otherwise; nil when the run
    /// was cancelled (it died by the signal) or did not finish.
    public var exitStatus: Int? {
        guard finished, !cancelled else { return nil }
        return operations.contains { $0.outcome.isFailure } ? 1 : 0
    }

    /// How many operations ended each way.
    public var counts: [NodeOutcome.Kind: Int] {
        operations.reduce(into: [:]) { $0[$1.outcome, default: 0] += 1 }
    }

    /// The critical path: the chain of operations (each needing the one before) whose run times
    /// add up to the most, as indices into `operations`, the first to run first; empty when no
    /// chain has two operations.
    public func criticalPath() -> [Int] {
        let index = Dictionary(
            operations.indices.map { (operations[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        var edges: [(from: Int, to: Int)] = []
        for (position, operation) in operations.enumerated() {
            for need in operation.needs { if let target = index[need] { edges.append((position, target)) } }
        }
        let graph = AdjacencyList(nodeCount: operations.count, edges: edges)
        let path = TaskGraphCore.criticalPath(graph, weights: operations.map { $0.runTime ?? 0 })?.path ?? []
        return path.count > 1 ? path : []
    }
}
