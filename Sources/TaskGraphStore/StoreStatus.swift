/// What `cache status` shows of a store.
public struct StoreStatus: Hashable, Sendable {
    /// The store's root directory.
    public var root: String
    /// The bytes of every file in it.
    public var size: Int64
    /// Action records.
    public var records: Int
    /// Blobs.
    public var blobs: Int
    /// The latest runs' hits and misses, oldest first.
    public var recentRuns: [CacheRun]
}
