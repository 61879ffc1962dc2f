import Foundation
import TaskGraphCore
import TaskGraphReporting
import TaskGraphStore

/// The store a `run` or `explain` uses for one pipeline, and what is done with it around the
/// run: reading the last run's key components, remembering this run's, recording statistics,
/// keeping the store within its size. A store that cannot be written never fails the command:
/// warnings say what was not cached.
struct CacheSession {
    let store: ContentStore
    /// The size the store is kept within after the run.
    let maxSize: Int64
    /// The pipeline file's absolute path: what the last run's components are remembered under.
    let pipeline: String
    /// The current directory, for showing paths.
    let currentDirectory: String

    /// The store `location` names (or `storeRoot`, `--store`, when given), kept within `maxSize`
    /// (a `--cache-max-size` value) after a run, for `pipelineFile`, `flushingWrites` as
    /// `ContentStore.init` says (false for a run on this machine). `prepared` is used when it is
    /// that store and flushes its writes as asked (what it read already is not read again).
    static func open(
        _ location: CacheArguments, maxSize option: String? = nil, pipelineFile: String, storeRoot: String? = nil,
        flushingWrites: Bool = true, prepared: ContentStore? = nil
    ) async -> CacheSession {
        let currentDirectory = FileManager.default.currentDirectoryPath
        let maxSize: Int64
        do {
            maxSize = try await CacheArguments.maxSize(option: option)
        } catch {
            warn("\(error); keeping the cache within the default 5 GiB")
            maxSize = CacheConfiguration.defaultMaxSize
        }
        let root = storeRoot.map { PathResolver.resolve($0, in: currentDirectory) } ?? location.root
        let store = if let prepared, prepared.root == root, prepared.flushesWrites == flushingWrites {
            prepared
        } else {
            ContentStore(root: root, registry: .builtIn, flushingWrites: flushingWrites)
        }
        return CacheSession(
            store: store, maxSize: maxSize,
            pipeline: PathResolver.resolve(pipelineFile, in: currentDirectory), currentDirectory: currentDirectory)
    }

    /// The run's view of the store.
    func runCache(
        reuse: Bool, forcing: RunCache.Forcing, known: KnownResults? = nil
    ) async -> RunCache {
        RunCache(
            store: store, previousComponents: store.rememberedComponents(pipeline: pipeline), reuse: reuse,
            forcing: forcing, displayDirectory: currentDirectory, known: known)
    }

    /// What a run of `graph` with `reuse` would decide for each of its operations, running
    /// nothing: what `explain` and `run --dry-run` print.
    /// - Throws: `ValidationError` for a `--force` id that selects nothing.
    func decisions(
        for graph: ExecutionGraph, reuse: ReuseArguments
    ) async throws -> [(id: String, decision: Result<CacheDecision, ExplanationError>)] {
        let cache = await runCache(reuse: !reuse.noCache, forcing: try reuse.forcing(in: graph))
        return await cache.explain(graph)
    }

    /// After a run: remembers its key components, records its hits and misses and saves the
    /// file digests it learned (three files, written at once), then evicts least-recently-used
    /// entries beyond the size limit.
    func finish(_ cache: RunCache) async {
        let decisions = cache.decisions.values
        do {
            async let components: Void = store.rememberComponents(cache.components, pipeline: pipeline)
            async let runLog: Void = store.recordRun(
                pipeline: pipeline, hits: decisions.filter { $0.status == .hit }.count,
                misses: decisions.filter { $0.status == .miss }.count)
            async let digests: Void = store.flush()
            try await components
            try await runLog
            try await digests
            _ = try await store.evictIfNeeded(maxSize: maxSize)
        } catch {
            Self.warn("the cache was not updated after the run: \(error)")
        }
    }

    private static func warn(_ message: String) {
        TextOutput.standardError.write("taskgraph: warning: \(message)\n")
    }
}
