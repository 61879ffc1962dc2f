import TaskGraphCore

/// Why the store could not do what it was asked. Every case reads as a complete sentence; the
/// engine turns them into warnings, so a full disk or an unwritable store never fails a run.
public enum StoreError: Error, Equatable, Sendable {
    /// A file of the store could not be created, written or renamed (disk full, read-only).
    case writeFailed(root: String, reason: String)
    /// A file of the store exists but could not be read.
    case readFailed(root: String, reason: String)
    /// The blob `digest` is not in the store.
    case missingEntry(ContentDigest)
    /// The blob `digest` did not hash to its name; it was removed.
    case corruptEntry(ContentDigest)
    /// The blob `digest` is intact but holds a result this build cannot read.
    case unreadableResult(ContentDigest, reason: String)
    /// A size is not written as one (`--max-size`, `cache_max_size`).
    case invalidSize(String)
    /// A line of the user's configuration file is wrong.
    case invalidConfiguration(file: String, line: Int, reason: String)
    /// The user's configuration file exists but cannot be read.
    case unreadableConfiguration(file: String, reason: String)
}

extension StoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .writeFailed(let root, let reason):
            "cannot write to the cache at \(root): \(reason)"
        case .readFailed(let root, let reason):
            "cannot read the cache at \(root): \(reason)"
        case .missingEntry(let digest):
            "cache entry \(digest) is missing"
        case .corruptEntry(let digest):
            "corrupt cache entry \(digest)"
        case .unreadableResult(let digest, let reason):
            "cache entry \(digest) cannot be read by this build: \(reason)"
        case .invalidSize(let text):
            "'\(text)' is not a size such as 5GiB, 500MB or 1G"
        case .invalidConfiguration(let file, let line, let reason):
            "\(file):\(line): \(reason)"
        case .unreadableConfiguration(let file, let reason):
            "cannot read the configuration file \(file): \(reason)"
        }
    }
}
