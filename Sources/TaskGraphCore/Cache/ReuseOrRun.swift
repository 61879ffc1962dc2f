/// What a run's cache decided for a node about to run (`RunCache.prepare`): the engine reuses
/// a result, or runs the node and then tells the cache how it ended (`RunCache.finished`).
enum ReuseOrRun {
    /// It ends `cached` with `result`, without running: its decision says why (unchanged, or a
    /// file of its restored). `fusedIntermediate`: the result is the reference a fused chain's
    /// intermediate recorded, which the next node of the chain of this run needs alone.
    case reuse(any OperationResult, CacheDecision, fusedIntermediate: Bool = false)
    /// Its stored result's remote source changed (`CacheableAction.revalidate`): it ends
    /// `succeeded` with the fresh `result`, already recorded (`warnings`: the store could not
    /// take it, …).
    case fetched(any OperationResult, CacheDecision, warnings: [String])
    /// It runs; its result is recorded under `key` when there is one. `decision` says why it
    /// runs, when it has one (a node that is not cacheable, or whose input is not, has none).
    case run(key: ContentDigest?, decision: CacheDecision?)
    /// It fails with `error` (its key could not be computed: a declared input is missing).
    case failed(any Error)
    /// Its task was cancelled while its stored result was revalidated.
    case cancelled
}
