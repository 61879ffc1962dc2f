import Foundation
import TaskGraphCore
import TaskGraphReporting
import TaskGraphStore

/// `taskgraph run` when nothing changed since the same command last reused every operation:
/// ninja's no-op without its build log. A run that reused everything leaves an
/// `UpToDateSnapshot` in the store, under a digest of the command (its arguments, the working
/// directory, the environment); the next identical command compares the `stat` of every file
/// that decision rested on and, when none changed, says so without reading the pipeline or
/// computing a key. Anything else (a changed file, an older snapshot, an option that needs the
/// run's events) takes the full run, which decides every operation as before.
struct UpToDateRun {
    /// The store the command names (`--cache-dir`, `TASKGRAPH_CACHE_DIR`, the default).
    let store: ContentStore
    /// The digest of the command: what its snapshot is kept under.
    let invocation: ContentDigest
    /// The pipeline file's absolute path.
    let pipeline: String
    /// What the decision rests on besides the files the keys read: the pipeline file, this
    /// executable and the directories programs are looked up in.
    let watched: [String]

    /// The fast path for `command`, or nil when its options need the full run: events, a trace,
    /// a report, explanations, a dry run, `--no-cache`, `--force`, a cluster, `--lint` (its
    /// messages name locations a plan read back does not keep), or a `PATH` with relative directories.
    init?(_ command: RunCommand) {
        guard !command.dryRun, !command.json, !command.explain, command.events == nil, command.trace == nil,
            command.report == nil, !command.cache.reuse.noCache, !command.cache.reuse.forcesAny, command.cluster.executor == nil,
            command.cluster.store == nil, command.lint.mode == nil,
            let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let searchPath = (environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard searchPath.allSatisfy({ $0.hasPrefix("/") }) else { return nil }
        let currentDirectory = FileManager.default.currentDirectoryPath
        pipeline = PathResolver.resolve(command.file, in: currentDirectory)
        // With the executable: another build run the same way has its own snapshots.
        var identity = "taskgraph run, up-to-date snapshot 3\0" + executable + "\0" + currentDirectory + "\0"
        for argument in CommandLine.arguments.dropFirst() { identity += argument + "\0" }
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { identity += name + "=" + value + "\0" }
        invocation = ContentDigest.sha256(of: Data(identity.utf8))
        watched = [pipeline, executable] + searchPath
        // The run's own store when the pipeline names no other and runs on this machine
        // (`CacheSession.open`): it does not flush its writes.
        store = command.cache.location.store(registry: .builtIn, flushingWrites: false)
    }

    /// What the last snapshot of this command shows, read before anything else.
    struct Start {
        /// The snapshot, of which something changed since; nil when there is none to trust.
        var found: UpToDateSnapshot?
        /// The paths of `found` that changed.
        var changed: Set<String> = []
        /// When the paths of `found` were checked (nanoseconds since 1970).
        var checked: Int64 = .min
        /// The `stat` of what the run will rest on, taken before the pipeline is read.
        var baseline: UpToDateSnapshot.Baseline
    }

    /// Reads this command's snapshot: when nothing it rests on changed, records the run's hits,
    /// prints what a run would have (every operation cached) and returns nil; otherwise returns
    /// what the full run starts from.
    func start() async -> Start? {
        let started = ContinuousClock.now
        let found = await store.upToDateSnapshot(invocation: invocation)
        guard let found, found.changed.isEmpty else {
            store.prepareForRun(pipeline: pipeline)
            return Start(
                found: found?.snapshot, changed: found?.changed ?? [], checked: found?.checked ?? .min,
                baseline: await store.upToDateBaseline(watching: watched))
        }
        let count = found.snapshot.operations
        try? await store.recordRun(pipeline: pipeline, hits: count, misses: 0)
        let operations = "\(count) operation\(count == 1 ? "" : "s")"
        let output = TextOutput.standardError
        output.write("[    0.0s] run       \(operations)\n[    0.0s] cached    \(operations): nothing changed since the last run\n")
        output.write("\n\(count) cached in \(DurationText.format(ContinuousClock.now - started))\n")
        output.flush()
        return nil
    }

    /// Loads the pipeline `file` as `PipelineLoading.load` does, from the plan kept for this
    /// command when the file's bytes and this executable are the same as when it was kept
    /// (docs/cache.md, "Plans"); keeps the plan of a file loaded in full that includes no other.
    func loadPipeline(_ file: String, options: PipelineOptions) async throws -> Pipeline {
        let executable = watched[1]
        let read = try? await BlockingIO.run { () throws -> (bytes: Data, key: ContentDigest?) in
            let bytes = try FileIO.read(file)
            return (bytes, ContentStore.planKey(pipeline: bytes, executable: executable))
        }
        guard let read, let key = read.key else { return try await PipelineLoading.load(file, options: options) }
        if let plan = await store.plan(invocation: invocation, key: key, registry: options.registry) { return plan }
        let pipeline = try await PipelineLoading.load(file, bytes: read.bytes, options: options)
        // The key covers this file's bytes only: not directory listings (globs), nor the files it
        // includes, nor an operation's result that instances are made from (`foreach: {from: …}`).
        if !pipeline.usesGlobs, pipeline.includedFiles.isEmpty, !pipeline.graph.addsNodesWhileRunning {
            await store.rememberPlan(pipeline, invocation: invocation, key: key)
        }
        return pipeline
    }

    /// Before the engine starts: when the run uses this store (not one its pipeline names),
    /// notes every file digest it uses from now on and returns what the run can start from
    /// (`KnownResults`; nil when there is none or something it rests on besides the
    /// operations' own files changed). `observing` is false when the run uses another store.
    func observe(_ session: CacheSession, from start: Start) -> (observing: Bool, known: KnownResults?) {
        guard session.store.root == store.root else { return (false, nil) }
        session.store.startObservingFiles()
        guard let snapshot = start.found else { return (true, nil) }
        return (true, store.knownResults(from: snapshot, changed: start.changed, watched: watched))
    }

    /// After the full run: when the same command would now reuse every operation of `graph`
    /// (each was reused as it was or ran and was recorded; none asks its source again on a hit),
    /// and the pipeline had no warnings, no globs and no includes (its graph rests on directory
    /// listings or other files, which the snapshot does not watch), remembers what that rests on.
    func remember(
        _ report: RunReport, of graph: ExecutionGraph, cache: RunCache, pipeline: Pipeline, onCluster: Bool,
        start: Start, in session: CacheSession
    ) async {
        guard pipeline.warnings.isEmpty, !pipeline.usesGlobs, pipeline.includedFiles.isEmpty, !onCluster,
            !graph.addsNodesWhileRunning,
            !report.wasCancelled, !report.hasFailures, cache.wouldReuseEverything,
            !graph.nodes.indices.contains(where: { (graph.nodes[$0].action as? any CacheableAction)?.revalidatesOnHit == true }),
            let operations = cache.entriesForNextRun
        else { return }
        await session.store.rememberUpToDate(
            invocation: invocation, operations: operations, baseline: start.baseline, previous: start.found,
            reused: cache.reusedFromKnown, checked: start.checked)
    }
}
