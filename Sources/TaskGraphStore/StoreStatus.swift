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

/// What `cache verify` checked and removed.
public struct VerificationReport: Hashable, Sendable {
    /// Blobs hashed.
    public var blobsChecked: Int
    /// Blobs whose contents did not match their digest, removed.
    public var corruptBlobsRemoved: Int
    /// Records read.
    public var recordsChecked: Int
    /// Records damaged or naming a missing blob, removed.
    public var recordsRemoved: Int
}
