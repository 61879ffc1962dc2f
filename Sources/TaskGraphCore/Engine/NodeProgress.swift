/// What the scheduler tracks about one node while a run is under way, packed into one small
/// value so that releasing a dependent or gathering an input reads one cache line, not one per
/// array: on a graph of 100,000 nodes whose edges jump around memory, those reads are most of
/// the scheduling cost.
struct NodeProgress {
    /// How a node that ended counts for the nodes that need it.
    enum Ending {
        /// It has its result (it ran, or reused a stored one).
        case succeeded
        /// It failed, timed out, was cancelled, or was skipped because of a failure.
        case failed
        /// Its `when:` rule was not met.
        case bypassed
    }

    /// What a node should do once a dependency has ended.
    enum Verdict {
        /// Wait for more dependencies.
        case waiting
        /// Start: its rule is met and nothing it needs is still running.
        case ready
        /// End as skipped: a dependency failed and it runs only on success.
        case skip
        /// End as bypassed: its rule cannot be met.
        case bypass
    }

    /// Dependencies that have not ended yet; the node is ready at zero (as its rule allows).
    var remainingDependencies: Int32
    /// Dependents that have not started yet; the result is dropped at zero.
    var pendingConsumers: Int32
    /// The longest chain of finished nodes leading to this node so far.
    var depth: Int32 = 0
    /// Among ready nodes of its pool, higher priorities start first.
    let priority: Int32
    /// The pool the node runs in.
    let pool: UInt16
    /// Whether the node runs alone in its pool or run.
    let exclusive: Exclusivity
    /// When the node runs, given how its dependencies ended.
    let rule: TriggerRule
    /// Whether the node has an outcome (it finished, or it was skipped or bypassed).
    var hasEnded = false
    /// Whether a dependency failed (or was skipped because of a failure).
    var neededFailed = false
    /// Whether a dependency was bypassed.
    var neededBypassed = false
    /// The node's result while some dependent still needs it (and, for nodes nothing needs,
    /// until the report). Stored inline: handing it to a dependent copies it from the cache
    /// line just read instead of following a pointer.
    var result: (any OperationResult)?

    /// One dependency ended `ending`, at chain length `depth`.
    /// - Returns: what the node should do now; `.waiting` once it has ended.
    mutating func dependencyEnded(_ ending: Ending, depth: Int32) -> Verdict {
        guard !hasEnded else { return .waiting }
        self.depth = max(self.depth, depth)
        remainingDependencies -= 1
        switch ending {
        case .succeeded: break
        case .failed: neededFailed = true
        case .bypassed: neededBypassed = true
        }
        switch rule {
        case .success:
            if neededFailed { return .skip }
            if neededBypassed { return .bypass }
            return remainingDependencies == 0 ? .ready : .waiting
        case .always:
            return remainingDependencies == 0 ? .ready : .waiting
        case .failure:
            guard remainingDependencies == 0 else { return .waiting }
            return neededFailed ? .ready : .bypass
        }
    }
}
