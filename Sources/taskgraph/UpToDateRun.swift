import Foundation
import TaskGraphCore
import TaskGraphReporting
import TaskGraphStore

/// `taskgraph run` when nothing changed since the same command last reused every operation:
/// the library's `UpToDateCheck` under a digest of the command (its arguments, the working
/// directory, the environment), resting on the pipeline file, this executable and `PATH`'s
/// directories besides the files the keys read. When nothing changed it says so without
/// reading the pipeline or computing a key. Anything else (a changed file, an older snapshot,
/// an option that needs the run's events) takes the full run, which decides every operation.
struct UpToDateRun {
    /// The check of this command's snapshot, in the store the command names (`--cache-dir`,
    /// `TASKGRAPH_CACHE_DIR`, the default).
    let check: UpToDateCheck
    /// This executable's path: plans kept with another build are not read back.
    let executable: String

    /// The store the command names.
    var store: ContentStore { check.store }

    /// The fast path for `command`, or nil when its options need the full run: events, a trace,
    /// a report, explanations, a dry run, `--no-cache`, `--force`, a cluster, `--lint` (its
    /// messages name locations a plan read back does not keep), or a `PATH` with relative directories.
    init?(_ command: RunCommand) {
        guard !command.dryRun, !command.json, !command.explain, command.events == nil, command.trace == nil,
            command.report == nil, !command.cache.reuse.noCache, !command.cache.reuse.forcesAny,
            command.cluster.executor == nil,
            command.cluster.store == nil, command.lint.mode == nil, let process = UpToDateCheck.currentProcess()
        else { return nil }
        let pipeline = PathResolver.resolve(command.file, in: process.directory)
        // With the executable: another build run the same way has its own snapshots.
        var identity = "taskgraph run, up-to-date snapshot 3\0" + process.executable + "\0" + process.directory + "\0"
        for argument in CommandLine.arguments.dropFirst() { identity += argument + "\0" }
        identity += process.environment
        // The run's own store when the pipeline names no other and runs on this machine
        // (`CacheSession.open`): it does not flush its writes.
        check = UpToDateCheck(
            store: command.cache.location.store(registry: .builtIn, flushingWrites: false),
            invocation: ContentDigest.sha256(of: Data(identity.utf8)), pipeline: pipeline,
            watched: [pipeline, process.executable] + process.searchPath)
        executable = process.executable
    }

    /// Reads this command's snapshot: when nothing it rests on changed, records the run's hits,
    /// prints what a run would have (every operation cached) and returns nil; otherwise returns
    /// what the full run starts from.
    func start() async -> UpToDateCheck.Start? {
        let started = ContinuousClock.now
        let start = await check.start()
        guard start.nothingChanged else { return start }
        await check.recordNothingChanged(start)
        let count = start.operations
        let operations = "\(count) operation\(count == 1 ? "" : "s")"
        let output = TextOutput.standardError
        output.write(
            "[    0.0s] run       \(operations)\n[    0.0s] cached    \(operations): nothing changed since the "
                + "last run\n"
        )
        output.write("\n\(count) cached in \(DurationText.format(ContinuousClock.now - started))\n")
        output.flush()
        return nil
    }

    /// Loads the pipeline `file` as `PipelineLoading.load` does, from the plan kept for this
    /// command when the file's bytes and this executable are the same as when it was kept; with
    /// the key to keep its plan under (`UpToDateCheck.keepPlan`) when it is to be kept.
    func loadPipeline(
        _ file: String, options: PipelineOptions
    ) async throws -> (pipeline: Pipeline, planKey: ContentDigest?) {
        try await check.loadPipeline(file, executable: executable, registry: options.registry) { bytes in
            try await PipelineLoading.load(file, bytes: bytes, options: options)
        }
    }
}
