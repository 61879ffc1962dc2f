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
    /// Symbolic links found where the store has directories: not followed, nothing under them
    /// checked or removed.
    public var linksSkipped: [String] = []
}
