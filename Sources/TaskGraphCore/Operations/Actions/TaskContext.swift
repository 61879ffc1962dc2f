/// What a running action knows: who it is, what its dependencies produced, and where to report.
public struct TaskContext: Sendable {
    /// One dependency's result.
    public struct Input: Sendable {
        /// The dependency's node id, e.g. `download[lake]`.
        public var id: String
        /// What it produced.
        public var result: any OperationResult

        /// Pairs a dependency's id with its result.
        public init(id: String, result: any OperationResult) {
            self.id = id
            self.result = result
        }
    }

    /// This node's id.
    public let id: String
    /// The 1-based attempt number (greater than 1 when retrying).
    public let attempt: Int
    /// The results of every dependency, in the order the dependencies were declared.
    public let inputs: [Input]
    /// The dependency chosen explicitly (`input:`) when several could provide what is needed.
    public let preferredInputID: String?
    /// The run's threads for blocking work, working-memory budget, temporary files and child
    /// processes.
    public let resources: RunResources
    let progressHandler: (@Sendable (ProgressUpdate) -> Void)?

    /// Creates a context; the engine does this for every attempt.
    /// - Parameter resources: the run's resources; by default those of the current run
    ///   (`RunResources.current`), or outside a run a new set for this context alone.
    public init(
        id: String, attempt: Int = 1, inputs: [Input] = [], preferredInputID: String? = nil,
        resources: RunResources? = nil, progressHandler: (@Sendable (ProgressUpdate) -> Void)? = nil
    ) {
        self.id = id
        self.resources = resources ?? RunResources.current ?? RunResources()
        self.attempt = attempt
        self.inputs = inputs
        self.preferredInputID = preferredInputID
        self.progressHandler = progressHandler
    }

    /// The one input that provides `provider`: the preferred input if one is named, otherwise the
    /// first dependency result conforming to it.
    /// - Throws: `OperationError.missingInput` when no dependency provides it.
    public func input<Provider>(_ provider: Provider.Type) throws -> Provider {
        guard let match = inputIfPresent(provider) else {
            throw OperationError.missingInput(node: id, expected: String(describing: provider))
        }
        return match
    }

    /// `input(_:)`, or nil when no dependency provides `provider`: for a consumer that tries
    /// several providers in turn and fails only when none is there.
    public func inputIfPresent<Provider>(_ provider: Provider.Type) -> Provider? {
        for input in inputs where preferredInputID == nil || input.id == preferredInputID {
            if let match = input.result as? Provider { return match }
        }
        return nil
    }

    /// Every input that provides `provider`, in dependency order (for fan-in operations).
    public func inputs<Provider>(_ provider: Provider.Type) -> [(id: String, value: Provider)] {
        inputs.compactMap { input in
            (input.result as? Provider).map { (input.id, $0) }
        }
    }

    /// Reports progress for live displays and event logs, e.g. bytes downloaded so far.
    public func reportProgress(completed: Int64, total: Int64?, unit: ProgressUpdate.Unit = .bytes) {
        progressHandler?(ProgressUpdate(completed: completed, total: total, unit: unit))
    }

    /// Reports one line of log output from the action.
    public func log(_ line: String) {
        progressHandler?(ProgressUpdate(message: line))
    }

    /// Reports one line its program wrote (`exec`), for `run --logs`.
    public func reportOutput(_ line: OutputLine) {
        progressHandler?(ProgressUpdate(output: line))
    }

    /// Reports a warning about this node: the run goes on, and the warning is shown with the
    /// node's id (an `EngineEvent` `warning`).
    public func warn(_ message: String) {
        progressHandler?(ProgressUpdate(warning: message))
    }

    /// Reports where a remote attempt stands (a `RemoteExecutor`), with a log line saying so.
    public func report(_ status: RemoteJobStatus, message: String) {
        progressHandler?(ProgressUpdate(message: message, remote: status))
    }
}

/// A progress report from a running action.
public struct ProgressUpdate: Sendable, Hashable, Codable {
    /// What `completed` and `total` count.
    public enum Unit: String, Sendable, Hashable, Codable {
        case bytes
        case items
    }

    /// Work done so far.
    public var completed: Int64 = 0
    /// Total work, when known.
    public var total: Int64?
    /// What the numbers count.
    public var unit: Unit = .items
    /// A log line, when this update carries one.
    public var message: String?
    /// With a log line from a remote attempt: its job's state.
    public var remote: RemoteJobStatus?
    /// A warning about the node, when this update carries one instead of progress or a log line;
    /// the engine reports it as a `warning` event.
    public var warning: String?
    /// A line its program wrote, when this update carries one instead of progress or a log line.
    public var output: OutputLine?

    /// A numeric progress update.
    public init(completed: Int64, total: Int64?, unit: Unit) {
        self.completed = completed
        self.total = total
        self.unit = unit
    }

    /// A log line, from a remote attempt's job when `remote` is given.
    public init(message: String, remote: RemoteJobStatus? = nil) {
        self.message = message
        self.remote = remote
    }

    /// A warning about the node.
    public init(warning: String) {
        self.warning = warning
    }

    /// A line its program wrote.
    public init(output: OutputLine) {
        self.output = output
    }
}
