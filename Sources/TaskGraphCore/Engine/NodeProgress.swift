/// What the scheduler tracks about one node while a run is under way, packed into one small
/// value so that releasing a dependent or gathering an input reads one cache line, not one per
/// array: on a graph of 100,000 nodes whose edges jump around memory, those reads are most of
/// the scheduling cost.
struct NodeProgress {
    /// Dependencies that have not finished yet; the node is ready at zero.
    var remainingDependencies: Int32
    /// Dependents that have not started yet; the result is dropped at zero.
    var pendingConsumers: Int32
    /// The longest chain of finished nodes leading to this node so far.
    var depth: Int32 = 0
    /// The pool the node runs in.
    let pool: UInt16
    /// Whether the node has an outcome (it finished, or it was skipped).
    var hasEnded = false
    /// The node's result while some dependent still needs it (and, for nodes nothing needs,
    /// until the report). Stored inline: handing it to a dependent copies it from the cache
    /// line just read instead of following a pointer.
    var result: (any Artifact)?

    /// One dependency finished successfully at chain length `depth`.
    /// - Returns: whether the node is now ready (no dependency left, not skipped).
    mutating func dependencyFinished(depth: Int32) -> Bool {
        self.depth = max(self.depth, depth)
        remainingDependencies -= 1
        return remainingDependencies == 0 && !hasEnded
    }
}
