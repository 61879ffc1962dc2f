/// A task action whose result taskgraph may reuse from an earlier run: every built-in operation,
/// and a program's own action types that opt in. Actions made from closures are never cached.
///
/// The key of a run of the action covers its operation type and `cacheVersion`, its parameters
/// (the node's `OperationSetup` when it has one, those in `unkeyedParameters` left out; else
/// the action's type and what `addParameters` adds), the variables of its declared environment
/// (as digests), the digests of its inputs' results, and what `addKeyComponents` adds. Whatever
/// else could change its result must be added there: two actions that would compute different
/// results must never have the same key.
public protocol CacheableAction: FileWritingAction {
    /// This action's implementation version: bumped whenever its result for the same key
    /// components changes, so older results of this type are no longer reused (and results of
    /// other types still are).
    var cacheVersion: Int { get }

    /// Adds every value the action was made with that decides its result (a radius, a quality,
    /// a command), as named components (`key.add("radius", "6")`), for a node added in code
    /// without an `OperationSetup`. There is no default: an action that cannot say what it
    /// does must not be `CacheableAction`.
    func addParameters(to key: inout KeyComponents)

    /// Parameters that cannot change the result, such as time limits: changing one does not
    /// make the operation run again.
    var unkeyedParameters: Set<String> { get }

    /// Adds what decides the result besides the parameters and the inputs' results: the
    /// contents of files it reads, the program it runs.
    /// - Throws: when a component cannot be computed (a declared input file is missing): the
    ///   node fails with this error, as it would have when running.
    func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws

    /// Variables of the declared environment the program is given but whose values cannot
    /// change its result (`HOME`, `USER`, …): left out of the key, so the same pipeline run by
    /// another user on another machine computes the same key.
    var unkeyedEnvironment: Set<String> { get }

    /// For a result whose source can change while the key stays the same (a URL's body):
    /// checks the stored result, written with `validators`, against its source (a conditional
    /// request).
    /// - Returns: nil when the stored result is still current; otherwise the fresh result, as
    ///   `run(in:)` would have produced it.
    func revalidate(validators: [String: String], in context: TaskContext) async throws -> (any OperationResult)?

    /// Whether `revalidate` asks the source on every hit (an unpinned URL): a run of it cannot
    /// be confirmed unchanged from files alone.
    var revalidatesOnHit: Bool { get }

    /// Why the action runs every time unless its node asks for reuse with `cache: true`
    /// (`NodeSettings.cacheRequested`), or nil when its key covers what it depends on. An
    /// `exec` that declares no files it reads or writes: its key cannot see what it depends on,
    /// and skipping it would skip its side effects (a deploy, a notification).
    var alwaysRunReason: String? { get }

    /// The result, for an action that does no work to produce it (a `group`): it has no key and
    /// is never written to the store. The node is reused when every node it needs was (one that
    /// needs nothing always is), and otherwise runs in place, with no time limit or retry. So a
    /// pipeline of thousands of groups costs no store access per group.
    var constantResult: (any OperationResult)? { get }

    /// Whether running it again on the same inputs' results gives the same result, reading and
    /// writing nothing else (no file, network, clock or process): a computation in memory such
    /// as an image filter. Only such an action's result may be left out of the store when
    /// recomputing it costs less than ten times writing it (`StoragePolicy`).
    var isRecomputable: Bool { get }
}

extension CacheableAction {
    /// None.
    public var unkeyedParameters: Set<String> { [] }

    /// Nothing.
    public func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws {}

    /// None.
    public var outputFiles: [String] { [] }

    /// None: every declared variable is keyed.
    public var unkeyedEnvironment: Set<String> { [] }

    /// Always current: the key covers everything.
    public func revalidate(validators: [String: String], in context: TaskContext) async throws -> (any OperationResult)?
    { nil }

    /// No: the key covers everything.
    public var revalidatesOnHit: Bool { false }

    /// None: the key covers what it depends on.
    public var alwaysRunReason: String? { nil }

    /// None: the action does work.
    public var constantResult: (any OperationResult)? { nil }

    /// No: its result is always stored.
    public var isRecomputable: Bool { false }
}

/// A result that carries what makes its source revalidatable (an HTTP `ETag`,
/// `Last-Modified`): stored with it and handed back to `CacheableAction.revalidate`.
public protocol RevalidatableResult: OperationResult {
    /// Named validators, e.g. `etag` and `last-modified`.
    var validators: [String: String] { get }
}

/// Digests files by content, remembering unchanged files (by size, modification and change
/// time, inode) so that a run where nothing changed reads nothing.
public protocol FileDigesting: Sendable {
    /// The SHA-256 of the contents of the file at `path` (absolute). Never blocks the cooperative
    /// thread pool.
    /// - Throws: an error naming the path when it cannot be read.
    func digest(ofFile path: String) async throws -> ContentDigest

    /// `digest(ofFile:)` for a caller already on a blocking thread (inside `BlockingIO.run`),
    /// so that several files and the checks around them take one trip there. Blocking.
    /// - Throws: an error naming the path when it cannot be read.
    func blockingDigest(ofFile path: String) throws -> ContentDigest

    /// `blockingDigest(ofFile:)` of each of `paths`, in order: an `exec`'s 50,000 `inputs:`
    /// files at once, which a digester may look up together. Blocking.
    /// - Throws: an error naming the first path that cannot be read.
    func blockingDigests(ofFiles paths: [String]) throws -> [ContentDigest]

    /// Notes that the key being computed depends on something no file's `stat` shows, such as
    /// which files a pattern matches: a run that used it cannot later be confirmed unchanged by
    /// comparing `stat`s alone (`taskgraph run`'s fast path for a run where nothing changed).
    func noteUncheckableDependency()

    /// Notes that the operation whose key is `key` writes the files at `paths` (absolute, in
    /// the order of its `outputFiles`): a store reading a record of that key, perhaps made in
    /// another checkout, gives it these paths (`OutputLocations`).
    func noteOutputFiles(_ paths: [String], forKey key: ContentDigest)
}

extension FileDigesting {
    /// Nothing: this digester confirms nothing by `stat`.
    public func noteUncheckableDependency() {}

    /// Nothing: this digester reads no records.
    public func noteOutputFiles(_ paths: [String], forKey key: ContentDigest) {}

    /// Each file's `blockingDigest(ofFile:)`, one after the other.
    public func blockingDigests(ofFiles paths: [String]) throws -> [ContentDigest] {
        try paths.map(blockingDigest(ofFile:))
    }
}
