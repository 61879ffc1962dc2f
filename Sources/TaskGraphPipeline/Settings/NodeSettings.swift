/// How the engine treats one node: retries, time limit, pool, caching and queue controls.
public struct NodeSettings: Hashable, Sendable, Codable {
    /// How many times to retry after a failure (0 = run once).
    public var retries: Int
    /// The time limit for one attempt; nil means none.
    public var timeout: Duration?
    /// The named pool the node runs in; nil means the default pool bounded by `--jobs`.
    public var pool: String?
    /// Whether the node may reuse a result of an earlier run (when its action is cacheable).
    public var cache: Bool
    /// Whether reuse was asked for explicitly (`cache: true` in a pipeline file): the node is
    /// reused even when its action would otherwise run every time
    /// (`CacheableAction.alwaysRunReason`, an `exec` that declares no files).
    public var cacheRequested: Bool
    /// Among ready nodes of its pool, higher priorities start first (see `QueuePriority`).
    /// Never overrides dependencies.
    public var priority: Int
    /// Whether the node runs alone in its pool or in the whole run.
    public var exclusive: Exclusivity
    /// When the node runs, given how the nodes it needs ended.
    public var when: TriggerRule
    /// Where it runs and what it asks a cluster for (`executor`, `cpus`, `memory`, …).
    public var cluster: ClusterSettings

    /// Creates settings.
    public init(
        retries: Int = 0, timeout: Duration? = nil, pool: String? = nil, cache: Bool = true,
        cacheRequested: Bool = false, priority: Int = 0,
        exclusive: Exclusivity = .shared, when: TriggerRule = .success, cluster: ClusterSettings = ClusterSettings()
    ) {
        self.retries = retries
        self.timeout = timeout
        self.pool = pool
        self.cache = cache
        self.cacheRequested = cacheRequested
        self.priority = priority
        self.exclusive = exclusive
        self.when = when
        self.cluster = cluster
    }
}
