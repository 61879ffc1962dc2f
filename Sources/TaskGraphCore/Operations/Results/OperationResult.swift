import Foundation

/// The result of an operation, handed to the operations that need it.
///
/// A result says what it can provide by conforming to provider protocols (`BytesProvider`,
/// `FileProvider`, …); a consumer finds its input among its dependencies' results by protocol,
/// never by knowing which operation produced it.
///
/// Every result is also a value with a stable serialised form and a content digest
/// (docs/results.md): `serialized()` writes the canonical payload of its `kind`, `init(serialized:)`
/// reads it back into an equal value, and `digest` is the SHA-256 of `SerializedResult.encoded`.
/// A store reads results back through a `ResultRegistry`, by kind, without knowing their types.
public protocol OperationResult: Sendable {
    /// A short human description for reports, e.g. `2.4 MB` or `exit 0`.
    var summary: String { get }

    /// The stable name of this type's serialised layout, e.g. `bytes` or `image.decoded`: 1 to 64
    /// characters from `a-z`, `0-9`, `.`, `-`, `_`. It never changes once data has been written
    /// with it; a new layout gets a new version inside the payload, or a new kind.
    static var kind: String { get }

    /// The canonical payload of `kind`: the same value always gives the same bytes, on every
    /// machine and in every process.
    /// - Throws: `ResultCodingError.unrepresentable` for a value the layout cannot hold,
    ///   `CancellationError`.
    func serialized() async throws -> Data

    /// Reads a payload written by `serialized()` back into an equal value.
    /// - Throws: `ResultCodingError` when the payload is truncated, too long or not of this layout.
    init(serialized payload: Data) throws

    /// The SHA-256 of this result's canonical encoding (`SerializedResult.encoded`): equal values
    /// have equal digests, on every machine. The default serialises and hashes; a type may hash
    /// the same bytes without building them, as long as the digest stays the same.
    var digest: ContentDigest { get async throws }

    /// The size of `serialized()` in bytes, when known without serialising (an image's is its
    /// header and pixels); nil otherwise, and the result is then always stored when its
    /// operation is cached (`CacheableAction.isRecomputable`).
    var payloadByteCount: Int? { get }

    /// This result with every file path it names replaced by `transform(path)`: how a result
    /// made where its files had other paths names them here (a record relocated to this run's
    /// output directory, a cluster job's scratch directory named by the driver's paths). The
    /// default returns `self`, for a result that names no path (a `FileProvider`'s maps `path`
    /// through its `withPath(_:)`); a type that holds other paths must map every one, or those
    /// places keep a path that is not where the file is.
    /// - Throws: what `transform` throws.
    func withPaths(mapped transform: (String) throws -> String) rethrows -> Self
}

extension OperationResult {
    /// The SHA-256 of `SerializedResult(kind: Self.kind, payload: serialized()).encoded`, hashed
    /// in slices so a large result does not hold a cooperative thread.
    public var digest: ContentDigest {
        get async throws {
            let payload = try await serialized()
            var hasher = try ContentHasher(resultKind: Self.kind, payloadCount: payload.count)
            try await hasher.update(chunked: payload)
            return hasher.finalize()
        }
    }

    /// Unknown.
    public var payloadByteCount: Int? { nil }

    /// `self`: a result that names no path.
    public func withPaths(mapped transform: (String) throws -> String) rethrows -> Self { self }
}

/// A result that can hand over a byte buffer.
public protocol BytesProvider: OperationResult {
    /// The bytes. Computed on demand where that is costly (e.g. encoding an image).
    var data: Data { get async throws }
}

/// A result that is a file on disk.
///
/// A file provider must say how it moves: `withPath(_:)` has no default, so a new type that
/// names a file cannot be reused with another place's path by forgetting to map it
/// (`OperationResult.withPaths(mapped:)` maps `path` through it).
public protocol FileProvider: OperationResult {
    /// The file's path.
    var path: String { get }

    /// The same result naming the file at `path`.
    func withPath(_ path: String) -> Self
}

extension FileProvider {
    /// This result with its file at `transform(path)`. A type naming more paths than `path`
    /// maps them all by implementing this itself.
    /// - Throws: what `transform` throws.
    public func withPaths(mapped transform: (String) throws -> String) rethrows -> Self {
        withPath(try transform(path))
    }
}
