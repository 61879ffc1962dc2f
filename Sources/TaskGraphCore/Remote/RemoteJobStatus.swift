/// Where a remote attempt stands in its scheduler, as a `RemoteExecutor` reports it through
/// `TaskContext.report(_:message:)`: the job's id and state, and once it ended, how long it
/// waited in the queue and how long it ran. Displays, JSON events, the trace and the summary
/// read it from the node's progress updates.
public struct RemoteJobStatus: Sendable, Hashable, Codable {
    /// The scheduler's job id, e.g. `65`.
    public var job: String
    /// The scheduler's state name, e.g. `PENDING`, `RUNNING`, `COMPLETED`, `TIMEOUT`;
    /// `SUBMITTED` between the submission and the first queue query that lists the job.
    public var state: String
    /// The scheduler's reason for the state, e.g. `Resources`, `TimeLimit`; nil when it gives none.
    public var reason: String?
    /// Once the job ended: from its submission to the operation's start on the node (queue
    /// wait and the worker's start).
    public var queueWait: Duration?
    /// Once the job ended: the operation's time on the node.
    public var runTime: Duration?
    /// Whether the job waits for a node (`SUBMITTED` and the scheduler's waiting states, which
    /// its executor knows): displays count it `pending`, not `running`.
    public var isWaiting: Bool

    /// A job's state, with its times once it ended; `waiting` when it waits for a node.
    public init(
        job: String, state: String, reason: String? = nil, waiting: Bool = false, queueWait: Duration? = nil,
        runTime: Duration? = nil
    ) {
        self.job = job
        self.state = state
        self.reason = reason
        self.isWaiting = waiting
        self.queueWait = queueWait
        self.runTime = runTime
    }
}
