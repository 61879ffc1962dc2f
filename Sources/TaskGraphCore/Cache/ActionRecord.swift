import Foundation

/// What a store keeps for one key: the result and files an operation instance produced, how it
/// went, and the key's components (to explain the next change). Only successful runs are
/// recorded. Its encoding is part of the store's layout (docs/cache.md).
public struct ActionRecord: Hashable, Sendable, Codable {
    /// A file the operation wrote besides its result.
    public struct OutputFile: Hashable, Sendable, Codable {
        /// Its absolute path.
        public var path: String
        /// The digest of its contents, also the name of its blob (when it has one).
        public var digest: ContentDigest
        /// Its contents themselves (whose digest is `digest`), when the record holds them instead
        /// of naming a blob: a file of at most `ActionRecord.inlineLimit` bytes (docs/cache.md,
        /// "Records"). Nil for a file stored as a blob.
        public var contents: Data?

        /// Pairs a path with its contents' digest, and the contents when the record holds them.
        public init(path: String, digest: ContentDigest, contents: Data? = nil) {
            self.path = path
            self.digest = digest
            self.contents = contents
        }
    }

    /// The digest of the encoded result, also the name of its blob (when it has one).
    public var result: ContentDigest
    /// The encoded result itself (`SerializedResult.encoded`, whose digest is `result`), when
    /// the record holds it instead of naming a blob: a result of at most `inlineLimit` bytes
    /// (docs/cache.md, "Records"). Nil for a result stored as a blob.
    public var inlineResult: Data?
    /// The result's kind, e.g. `image.decoded`.
    public var resultKind: String
    /// The result's summary for reports, e.g. `1.2 MB`.
    public var summary: String
    /// The files written besides the result.
    public var outputFiles: [OutputFile]
    /// What the result's source needs to be revalidated (`RevalidatableResult.validators`).
    public var validators: [String: String]
    /// How long the operation ran, in seconds.
    public var seconds: Double
    /// When it was recorded, in seconds since 1970.
    public var recordedAt: Double
    /// The id of the operation instance that produced it, e.g. `tilt[lake]`.
    public var id: String
    /// The key's components.
    public var components: KeyComponents

    /// Creates a record.
    public init(
        result: ContentDigest, resultKind: String, summary: String, outputFiles: [OutputFile] = [],
        validators: [String: String] = [:], seconds: Double, recordedAt: Double, id: String,
        components: KeyComponents, inlineResult: Data? = nil
    ) {
        self.result = result
        self.inlineResult = inlineResult
        self.resultKind = resultKind
        self.summary = summary
        self.outputFiles = outputFiles
        self.validators = validators
        self.seconds = seconds
        self.recordedAt = recordedAt
        self.id = id
        self.components = components
    }

    /// Every blob the record names: the result's and each output file's, unless the record holds
    /// them.
    public var blobs: [ContentDigest] {
        let files = outputFiles.lazy.filter { $0.contents == nil }.map(\.digest)
        return inlineResult == nil ? [result] + files : Array(files)
    }

    /// The largest encoded result, and the largest output file, a record holds itself instead of
    /// naming a blob: 1 KiB (an `exec`'s result that printed a few lines, a `save`'s, an
    /// `exec`'s small output file). A hit on it then reads one file (one request from a remote
    /// cache), and a run that records it creates one, not two or three.
    public static let inlineLimit = 1024

    /// The most bytes of output files one record holds: 64 KiB (64 files of 1 KiB, or more
    /// smaller ones); an operation's further small files are blobs. A record stays far below
    /// the size a reader accepts (16 MiB) however many files an operation writes.
    public static let heldFilesLimit = 64 << 10
}
