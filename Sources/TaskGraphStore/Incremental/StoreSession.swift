import Foundation
import TaskGraphCore

/// The store one run of a pipeline uses, and what is done with it around the run: reading the
/// last run's key components, remembering this run's and its operation ids, recording
/// statistics, keeping the store within its size. A store that cannot be written never fails
/// the run: `warn` says what was not cached.
public struct StoreSession: Sendable {
    /// The local store.
    public let store: ContentStore
    /// The local store in front of a remote cache, when the run uses one: where results are
    /// read and recorded. Set it before `runCache`.
    public var remote: TieredStore?
    /// The size the store is kept within after the run.
    public let maxSize: Int64
    /// Whether the store did not exist when the session opened (a fresh machine's).
    public let storeIsNew: Bool
    /// The pipeline file's absolute path (or a program's name): what the last run's key
    /// components, operation ids and statistics are remembered under.
    public let pipeline: String
    /// Paths in explanations are shown relative to this directory when inside it.
    public let displayDirectory: String
    /// Says what was not cached, e.g. `the cache was not updated after the run: …`.
    private let warn: @Sendable (String) -> Void

    /// Opens the store at `root` (reading results with `registry`; `prepared` instead, when it
    /// is that store and flushes its writes as asked) for the runs of `pipeline`, kept within
    /// `maxSize` after each; `flushingWrites` as `ContentStore.init` says (false for a run on
    /// this machine). `warn` is given what was not cached.
    public static func open(
        root: String, registry: ResultRegistry, pipeline: String, maxSize: Int64 = CacheConfiguration.defaultMaxSize,
        flushingWrites: Bool = true, prepared: ContentStore? = nil,
        displayDirectory: String = FileManager.default.currentDirectoryPath,
        warn: @escaping @Sendable (String) -> Void
    ) async -> StoreSession {
        let store =
            if let prepared, prepared.root == root, prepared.flushesWrites == flushingWrites {
                prepared
            } else {
                ContentStore(root: root, registry: registry, flushingWrites: flushingWrites)
            }
        // `prepared` (even one flushing otherwise) was asked before its up-to-date check wrote anything.
        let storeIsNew = await (prepared.flatMap { $0.root == root ? $0 : nil } ?? store).isNew()
        return StoreSession(
            store: store, remote: nil, maxSize: maxSize, storeIsNew: storeIsNew, pipeline: pipeline,
            displayDirectory: displayDirectory, warn: warn)
    }

    /// The run's view of the store: `RunCache` over the remote cache's tiers when there is one,
    /// explaining changes against the last run's key components.
    public func runCache(reuse: Bool = true, forcing: RunCache.Forcing = .none, known: KnownResults? = nil) -> RunCache
    {
        RunCache(
            store: remote ?? store, previousComponents: store.rememberedComponents(pipeline: pipeline), reuse: reuse,
            forcing: forcing, displayDirectory: displayDirectory, known: known)
    }

    /// After a run of `graph` (with the instances its fan-outs added): remembers its key
    /// components, records its hits and misses, saves the file digests it learned and, after a
    /// run of the whole graph (`wholeGraph`: not some targets, not interrupted) that was not
    /// cancelled and had no failure, its operation ids (written at once); then evicts
    /// least-recently-used entries beyond `maxSize`. Upload to a remote cache is the caller's
    /// to wait for, before.
    public func finish(_ cache: RunCache, report: RunReport, graph: ExecutionGraph, wholeGraph: Bool) async {
        let decisions = cache.decisions.values
        let complete = Self.keepsRunIDs(after: report, wholeGraph: wholeGraph)
        do {
            async let components: Void = store.rememberComponents(cache.components, pipeline: pipeline)
            async let runLog: Void = store.recordRun(
                pipeline: pipeline, hits: decisions.filter { $0.status == .hit }.count,
                misses: decisions.filter { $0.status == .miss }.count, remote: remote?.statistics)
            async let digests: Void = store.flush()
            async let ids: Void = complete ? store.rememberRunIDs(graph.nodes.map(\.id), pipeline: pipeline) : ()
            try await components
            try await runLog
            try await digests
            try await ids
            _ = try await store.evictIfNeeded(maxSize: maxSize, isNew: storeIsNew)
        } catch {
            warn("the cache was not updated after the run: \(error)")
        }
    }

    /// Whether `finish` keeps the ids of a run that ended with `report`: it ran the whole graph
    /// (`wholeGraph`: not some targets, not interrupted), was not cancelled and had no failure.
    /// Such a run has the pipeline's ids, with every instance its fan-outs added: what the next
    /// `--explain` names the removed ids from.
    public static func keepsRunIDs(after report: RunReport, wholeGraph: Bool) -> Bool {
        wholeGraph && !report.wasCancelled && !report.hasFailures
    }
}
