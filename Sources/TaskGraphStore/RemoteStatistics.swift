/// What a run did with the remote cache: records found and not, bytes moved, uploads.
public struct RemoteStatistics: Hashable, Sendable {
    /// Records found on the server.
    public var hits = 0
    /// Records looked for and not found (or refused: unsigned, damaged).
    public var misses = 0
    /// Bytes downloaded (records and blobs).
    public var bytesDown: Int64 = 0
    /// Bytes uploaded (records and blobs).
    public var bytesUp: Int64 = 0

    /// Statistics with these counts.
    public init(hits: Int = 0, misses: Int = 0, bytesDown: Int64 = 0, bytesUp: Int64 = 0) {
        self.hits = hits
        self.misses = misses
        self.bytesDown = bytesDown
        self.bytesUp = bytesUp
    }
}
