/// What a collection of the store found and removed.
public struct GarbageCollectionReport: Hashable, Sendable {
    /// Whether the store was listed; `evictIfNeeded` skips that while its estimate stays under
    /// the bound.
    public var scanned: Bool
    /// The store's size before, in bytes (an estimate when not scanned).
    public var sizeBefore: Int64
    /// Its size after, in bytes.
    public var sizeAfter: Int64
    /// Records removed: least recently used, too old, damaged, or naming a missing blob.
    public var recordsRemoved: Int
    /// Blobs removed: no record left names them.
    public var blobsRemoved: Int
    /// Leftovers of interrupted writes removed.
    public var temporariesRemoved: Int
    /// Snapshots too old to be trusted and plans not written for a week, removed.
    public var outdatedRemoved: Int
    /// Records left.
    public var recordsLeft: Int
    /// Blobs left.
    public var blobsLeft: Int
    /// Symbolic links found where the store has directories: not followed, nothing under them
    /// removed.
    public var linksSkipped: [String]

    /// Creates a report.
    public init(
        scanned: Bool, sizeBefore: Int64, sizeAfter: Int64, recordsRemoved: Int = 0, blobsRemoved: Int = 0,
        temporariesRemoved: Int = 0, outdatedRemoved: Int = 0, recordsLeft: Int = 0, blobsLeft: Int = 0,
        linksSkipped: [String] = []
    ) {
        self.scanned = scanned
        self.sizeBefore = sizeBefore
        self.sizeAfter = sizeAfter
        self.recordsRemoved = recordsRemoved
        self.blobsRemoved = blobsRemoved
        self.temporariesRemoved = temporariesRemoved
        self.outdatedRemoved = outdatedRemoved
        self.recordsLeft = recordsLeft
        self.blobsLeft = blobsLeft
        self.linksSkipped = linksSkipped
    }
}
