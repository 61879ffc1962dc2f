import Foundation

/// One attempt of an operation instance handed to another process (a cluster worker), as plain
/// data: what to make, which stored results are its inputs, and under which key to record what
/// it produces. Its JSON form is the job file of docs/cluster.md.
public struct RemoteJob: Hashable, Sendable, Codable {
    /// One input: a dependency's id and the digest of its result, a blob of the store.
    public struct Input: Hashable, Sendable, Codable {
        /// The dependency's id, e.g. `download[lake]`.
        public var id: String
        /// The digest of its result.
        public var digest: ContentDigest

        /// Pairs a dependency with its stored result.
        public init(id: String, digest: ContentDigest) {
            self.id = id
            self.digest = digest
        }
    }

    /// A file of the driver's checkout or output directory an operation of the job reads (a
    /// `load`'s file, an `exec`'s `inputs:` or program, a `decrypt`'s key file), for a worker
    /// whose node does not have it: a blob of the store.
    public struct File: Hashable, Sendable, Codable {
        /// Its absolute path on the driver's machine.
        public var path: String
        /// The digest of its contents.
        public var digest: ContentDigest
        /// Whether it is executable (a program the job runs).
        public var executable: Bool

        /// Names a file the job reads.
        public init(path: String, digest: ContentDigest, executable: Bool) {
            self.path = path
            self.digest = digest
            self.executable = executable
        }
    }

    /// The operation instance.
    public var setup: OperationSetup
    /// The 1-based attempt.
    public var attempt: Int
    /// Its inputs, in the declared order of its dependencies.
    public var inputs: [Input]
    /// The key to record the result under, when the operation is cacheable.
    public var key: ContentDigest?
    /// The key's components, recorded with the result.
    public var components: KeyComponents?
    /// For a fused chain (docs/cluster.md, "Fusion"): the operations that run after `setup` in
    /// the same job, each with the previous one's result as its only input; nil for one
    /// operation. The job's results are then returned, not recorded (`key` is nil).
    public var chain: [OperationSetup]?
    /// The files its operations read, for a node that shares no file system with the driver
    /// (docs/cluster.md, "Without a shared file system"): the worker then runs the job in a
    /// directory of its own holding them (`ScratchDirectory`). Nil: the node reads them where
    /// the driver does.
    public var files: [File]?

    /// Describes an attempt.
    public init(
        setup: OperationSetup, attempt: Int, inputs: [Input], key: ContentDigest?, components: KeyComponents?,
        chain: [OperationSetup]? = nil
    ) {
        self.setup = setup
        self.attempt = attempt
        self.inputs = inputs
        self.key = key
        self.components = components
        self.chain = chain
    }

    /// The job file's contents: JSON with sorted keys.
    /// - Throws: `EncodingError`.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
