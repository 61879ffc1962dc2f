import Foundation
import TaskGraphCore

/// File digests computed by reading and hashing the whole file every time, with no memory of
/// earlier ones: the simplest real `FileDigesting`, for testing what actions add to their keys.
public struct HashingFileDigests: FileDigesting {
    /// A digester.
    public init() {}

    /// The SHA-256 of the file's contents, read on a blocking thread.
    /// - Throws: `OperationError.readFailed` naming the path.
    public func digest(ofFile path: String) async throws -> ContentDigest {
        try await BlockingIO.run { try blockingDigest(ofFile: path) }
    }

    /// The same, on the calling thread.
    /// - Throws: `OperationError.readFailed` naming the path.
    public func blockingDigest(ofFile path: String) throws -> ContentDigest {
        try ContentDigest.sha256(ofFileAt: path)
    }
}

/// What `action` adds to an empty key with `HashingFileDigests`.
public func addedKeyComponents(of action: any CacheableAction) async throws -> KeyComponents {
    var key = KeyComponents()
    try await action.addKeyComponents(to: &key, files: HashingFileDigests())
    return key
}

extension KeyComponents {
    /// The components as `name=value` lines, for comparing with what a test expects.
    public var lines: [String] { components.map { "\($0.name)=\($0.value)" } }
}
