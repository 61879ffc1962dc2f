import Foundation

/// The result of an operation, handed to the operations that need it.
///
/// A result says what it can provide by conforming to provider protocols (`BytesProvider`,
/// `FileProvider`, …); a consumer finds its input among its dependencies' results by protocol,
/// never by knowing which operation produced it.
public protocol Artifact: Sendable {
    /// A short human description for reports, e.g. `2.4 MB` or `exit 0`.
    var summary: String { get }
}

/// A result that can hand over a byte buffer.
public protocol BytesProvider: Artifact {
    /// The bytes. Computed on demand where that is costly (e.g. encoding an image).
    var data: Data { get async throws }
}

/// A result that is a file on disk.
public protocol FileProvider: Artifact {
    /// The file's path.
    var path: String { get }
}

/// The result of an operation that produces nothing, such as `group`.
public struct EmptyArtifact: Artifact, Codable, Hashable {
    /// Creates the empty result.
    public init() {}
    /// An empty string: nothing to report.
    public var summary: String { "" }
}

/// Bytes held in memory.
public struct BytesArtifact: BytesProvider, Codable, Hashable {
    /// The bytes.
    public var data: Data

    /// Wraps `data`.
    public init(_ data: Data) {
        self.data = data
    }

    /// The size, e.g. `2.4 MB`.
    public var summary: String { ByteCountText.format(data.count) }
}

/// A file that was read into memory: both its bytes and its path are available.
public struct LoadedFile: BytesProvider, FileProvider, Codable, Hashable {
    /// Where the file was read from.
    public var path: String
    /// Its contents.
    public var data: Data

    /// Describes a loaded file.
    public init(path: String, data: Data) {
        self.path = path
        self.data = data
    }

    /// The size, e.g. `2.4 MB`.
    public var summary: String { ByteCountText.format(data.count) }
}

/// A file written by an operation.
public struct WrittenFile: FileProvider, Codable, Hashable {
    /// Where the file is.
    public var path: String
    /// How many bytes were written.
    public var byteCount: Int

    /// Describes a written file.
    public init(path: String, byteCount: Int) {
        self.path = path
        self.byteCount = byteCount
    }

    /// The path and size.
    public var summary: String { "\(path) (\(ByteCountText.format(byteCount)))" }
}
