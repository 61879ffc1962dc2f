import Foundation

/// How the engine runs a graph.
public struct EngineOptions: Sendable {
    /// Maximum operations running at once in the default pool (`--jobs`).
    public var jobs: Int
    /// Depth of each named pool (`pools:` in the file, `--pool name=N`). A node in a named pool
    /// counts against that pool only, so `pools: {net: 8}` runs eight downloads beside `--jobs`
    /// CPU-bound operations.
    public var pools: [String: Int]
    /// Cancel everything on the first failure instead of finishing independent branches.
    public var failFast: Bool
    /// The first retry waits about this long; each further retry doubles it (with jitter).
    public var retryBaseDelay: Duration
    /// No retry waits longer than this.
    public var retryMaxDelay: Duration
    /// Runs the nodes it accepts elsewhere (a cluster) through the run's store: a run with a
    /// cache (`RunCache`) computes every key and reuses stored results itself, and sends each
    /// other node the executor accepts to it; nil runs every node here. Without a cache (no
    /// store to pass results through) every node runs here.
    public var remote: (any RemoteExecutor)?

    /// Creates options; `jobs` defaults to the number of active processor cores.
    public init(
        jobs: Int = EngineOptions.defaultJobs, pools: [String: Int] = [:], failFast: Bool = false,
        retryBaseDelay: Duration = .milliseconds(200), retryMaxDelay: Duration = .seconds(10),
        remote: (any RemoteExecutor)? = nil
    ) {
        self.jobs = max(1, jobs)
        self.pools = pools
        self.failFast = failFast
        self.retryBaseDelay = retryBaseDelay
        self.retryMaxDelay = retryMaxDelay
        self.remote = remote
    }

    /// The number of active processor cores.
    public static var defaultJobs: Int { ProcessInfo.processInfo.activeProcessorCount }
}
