import Foundation
import TaskGraphCore

/// The up-to-date snapshot of one command or program: ninja's no-op without its build log. A
/// run that reused everything leaves an `UpToDateSnapshot` in the store under `invocation`;
/// the next run of the same invocation compares the `stat` of every file that decision rested
/// on and, when none changed, knows that every operation would be reused as it is, without
/// reading a pipeline or computing a key. Anything else (a changed file, an older snapshot)
/// takes the full run, which starts from what the snapshot shows unchanged.
public struct UpToDateCheck: Sendable {
    /// The store the snapshot is kept in.
    public let store: ContentStore
    /// The digest of what the graph is made from (a command's arguments, working directory and
    /// environment; a program's graph): what the snapshot is kept under.
    public let invocation: ContentDigest
    /// The pipeline file's absolute path (or a program's name): what its runs are logged under.
    public let pipeline: String
    /// What the decision rests on besides the files the keys read: the pipeline file, the
    /// executable and the directories programs are looked up in.
    public let watched: [String]

    /// A check of `invocation`'s snapshot in `store`, for the runs of `pipeline`, resting on
    /// `watched` besides the files the keys read.
    public init(store: ContentStore, invocation: ContentDigest, pipeline: String, watched: [String]) {
        self.store = store
        self.invocation = invocation
        self.pipeline = pipeline
        self.watched = watched
    }

    /// What a snapshot taken in this process rests on besides the files keys read: this
    /// executable, the directories of `PATH`, the working directory and the environment (each
    /// `name=value` followed by a NUL byte, sorted by name); nil when the executable cannot be
    /// found or `PATH` has a relative directory (what a program run finds would depend on the
    /// working directory).
    public static func currentProcess()
        -> (executable: String, searchPath: [String], directory: String, environment: String)?
    {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let variables = ProcessInfo.processInfo.environment
        let searchPath = (variables["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: false).map(
            String.init)
        guard searchPath.allSatisfy({ $0.hasPrefix("/") }) else { return nil }
        var environment = ""
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) { environment += name + "=" + value + "\0" }
        return (executable, searchPath, FileManager.default.currentDirectoryPath, environment)
    }

    /// What the last snapshot of this invocation shows, read before anything else.
    public struct Start: Sendable {
        /// The snapshot; nil when there is none to trust.
        var found: UpToDateSnapshot?
        /// The paths of `found` that changed.
        var changed: Set<String> = []
        /// When the paths of `found` were checked (nanoseconds since 1970).
        var checked: Int64 = .min
        /// The `stat` of what the run will rest on, taken before the pipeline is read; nil when
        /// nothing changed and no run was prepared.
        var baseline: UpToDateSnapshot.Baseline?

        /// Whether nothing the snapshot rests on changed: a run would reuse every operation.
        public var nothingChanged: Bool { found != nil && changed.isEmpty }
        /// How many operations the snapshot has (none without one).
        public var operations: Int { found?.operations ?? 0 }
    }

    /// Reads this invocation's snapshot. Unless nothing it rests on changed, or when `forRun`
    /// (a program that runs its graph either way), prepares the store for the full run and
    /// takes the `stat` of what it will rest on.
    public func start(forRun: Bool = false) async -> Start {
        // Before the run's plan or snapshot creates the store (`StoreSession.open` asks it again).
        _ = await store.isNew()
        let found = await store.upToDateSnapshot(invocation: invocation)
        var start = Start(found: found?.snapshot, changed: found?.changed ?? [], checked: found?.checked ?? .min)
        guard forRun || !start.nothingChanged else { return start }
        store.prepareForRun(pipeline: pipeline)
        start.baseline = await store.upToDateBaseline(watching: watched)
        return start
    }

    /// Records, when nothing changed (`start.nothingChanged`), a run that reused each of the
    /// snapshot's operations without running anything: what `cache status` lists.
    public func recordNothingChanged(_ start: Start) async {
        try? await store.recordRun(pipeline: pipeline, hits: start.operations, misses: 0)
    }

    /// Loads the pipeline `file` with `load` (given its bytes when they were read), from the
    /// plan kept for this invocation when the file's bytes and `executable` (the program
    /// reading it) are the same as when it was kept (docs/cache.md, "Plans"). Returns it with,
    /// for a file loaded in full that includes no other, the key to keep its plan under
    /// (`keepPlan(_:key:)`, which the caller runs when it will: beside the run).
    /// - Throws: what `load` throws.
    public func loadPipeline(
        _ file: String, executable: String, registry: OperationRegistry, with load: (Data?) async throws -> Pipeline
    ) async throws -> (pipeline: Pipeline, planKey: ContentDigest?) {
        let read = try? await BlockingIO.run { () throws -> (bytes: Data, key: ContentDigest?) in
            let bytes = try FileIO.read(file)
            return (bytes, ContentStore.planKey(pipeline: bytes, executable: executable))
        }
        guard let read, let key = read.key else { return (try await load(nil), nil) }
        if let plan = await store.plan(invocation: invocation, key: key, registry: registry) { return (plan, nil) }
        let pipeline = try await load(read.bytes)
        // The key covers this file's bytes only: not directory listings (globs), nor the files it
        // includes, nor an operation's result that instances are made from (`foreach: {from: …}`).
        let keepsPlan = !pipeline.usesGlobs && pipeline.includedFiles.isEmpty && !pipeline.graph.addsNodesWhileRunning
        return (pipeline, keepsPlan ? key : nil)
    }

    /// Keeps `pipeline`, which `loadPipeline` gave with `key`, as this invocation's plan.
    public func keepPlan(_ pipeline: Pipeline, key: ContentDigest) async {
        await store.rememberPlan(pipeline, invocation: invocation, key: key)
    }

    /// Before the engine starts: when the run uses this store (not one its pipeline names),
    /// notes every file digest it uses from now on and returns what the run can start from
    /// (`KnownResults`; nil when there is none or something it rests on besides the
    /// operations' own files changed). `observing` is false when the run uses another store.
    public func observe(_ session: StoreSession, from start: Start) -> (observing: Bool, known: KnownResults?) {
        guard session.store.root == store.root else { return (false, nil) }
        session.store.startObservingFiles()
        guard let snapshot = start.found else { return (true, nil) }
        return (true, store.knownResults(from: snapshot, changed: start.changed, watched: watched))
    }

    /// After the full run: when the same invocation would now reuse every operation of `graph`
    /// (each was reused as it was or ran and was recorded; none asks its source again on a hit),
    /// and `pipeline` had no warnings, no globs and no includes (its graph rests on directory
    /// listings or other files, which the snapshot does not watch), remembers what that rests on.
    /// `pipeline` is nil for a graph built in code; `onCluster`: the run's operations ran as
    /// jobs elsewhere.
    public func remember(
        _ report: RunReport, of graph: ExecutionGraph, cache: RunCache, pipeline: Pipeline?, onCluster: Bool,
        start: Start, in session: StoreSession
    ) async {
        guard let baseline = start.baseline, pipeline?.warnings.isEmpty ?? true, !(pipeline?.usesGlobs ?? false),
            pipeline?.includedFiles.isEmpty ?? true, !onCluster, !graph.addsNodesWhileRunning,
            !report.wasCancelled, !report.hasFailures, cache.wouldReuseEverything,
            !graph.nodes.indices.contains(where: {
                (graph.nodes[$0].action as? any CacheableAction)?.revalidatesOnHit == true
            }),
            let operations = cache.entriesForNextRun
        else { return }
        await session.store.rememberUpToDate(
            invocation: invocation, operations: operations, baseline: baseline, previous: start.found,
            reused: cache.reusedFromKnown, checked: start.checked)
    }
}
