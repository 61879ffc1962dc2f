import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting
import TaskGraphStore

/// `taskgraph run`: validates a pipeline, then runs it.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Validate a pipeline file, then run its operations concurrently.",
        discussion: """
            Ctrl-C (SIGINT) or SIGTERM cancels the run: nothing new starts, running operations are \
            cancelled at once (exec children get SIGTERM, then SIGKILL after their grace period), \
            no output file is left half-written, and a summary shows what finished; then taskgraph \
            dies by the signal (a shell reports 130 or 143). A second Ctrl-C exits immediately. \
            Ctrl-Z stops the run and its programs (time spent stopped does not count against \
            timeouts); fg or bg continues them. SIGUSR1 pauses or resumes the run without \
            stopping taskgraph.

            Exit codes: 0 success, 1 an operation failed, 2 invalid pipeline, 64 usage error.
            """)

    @Argument(help: "The pipeline file.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    @Argument(
        help: ArgumentHelp(
            "Run only these operations (ids such as tilt or tilt[lake]) and what they need.", valueName: "id"),
        completion: OperationIDCompletion.kind)
    var targets: [String] = []

    @Option(
        name: [.customShort("j", allowingJoined: true), .long],
        help: ArgumentHelp(
            "Maximum operations running at once in the default pool, -j 2 or -j2 (default: core count; with --executor "
                + "slurm, jobs queued or running at once, default 100).",
            valueName: "n"))
    var jobs: Int?

    @Flag(help: "Cancel everything on the first failure (default: finish independent branches).")
    var failFast = false

    @Flag(
        name: [.customShort("n"), .long],
        help:
            """
            Print the plan, level by level, each operation with what a run would do (run and why, or cached); run \
            nothing.
            """
    )
    var dryRun = false

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Run only these operations and what they need (as ids after the file).", valueName: "id"),
        completion: OperationIDCompletion.kind)
    var only: [String] = []

    @Flag(help: "Plain log lines even on a terminal.")
    var noProgress = false

    @Option(
        help: ArgumentHelp("Write every event as JSON Lines to this file (schema: docs/events.md).", valueName: "file"))
    var events: String?

    @Flag(help: "Write the JSON Lines events to standard output.")
    var json = false

    @Option(help: ArgumentHelp("Write a Chrome trace (Perfetto, chrome://tracing) to this file.", valueName: "file"))
    var trace: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report of the run to this file.", valueName: "file"))
    var report: String?

    @Flag(help: "After the run, watch what the pipeline reads and run again when it changes; Ctrl-C ends.")
    var watch = false

    @Flag(help: "Print, for every operation, whether it ran or was reused, and why.")
    var explain = false

    @OptionGroup var pipeline: PipelineArguments

    @OptionGroup var cache: CachingArguments

    @OptionGroup var cluster: ClusterArguments

    @OptionGroup var lint: LintArguments

    @OptionGroup var logs: LogArguments

    func validate() throws {
        guard jobs ?? 1 >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if json, events != nil { throw ValidationError("--json and --events both name where events go; use one") }
    }

    func run() async throws {
        if watch {
            let runArguments = CommandLine.arguments.dropFirst().filter { $0 != "--watch" }
            let written = [cache.location.root, cluster.store, events, trace, report].compactMap { $0 }
            try await WatchLoop(
                file: file, options: try pipeline.pipelineOptions(), runArguments: runArguments, ignoring: written
            ).run()
        }
        try await RunSetUp.around { try await runOnce($0) }
    }

    /// The run, with `setUp`'s pool as that of the blocking work outside it.
    private func runOnce(_ setUp: RunSetUp) async throws {
        cache.reuse.noteTargetsWithBareForce(targets)
        let named = [("--events", events), ("--trace", trace), ("--report", report)].compactMap { name, path in
            path.map { (name: name, path: $0) }
        }
        if !named.isEmpty { try await RunDestinations.checkDistinct([(name: "the pipeline file", path: file)] + named) }
        let upToDate = UpToDateRun(self)
        let start = await upToDate?.start()
        if upToDate != nil, start == nil { return }
        setUp.loadRemoteLibrary(cache.remote, dryRun: dryRun)
        let pipelineOptions = try pipeline.pipelineOptions()
        let (loaded, planKey) =
            if let upToDate {
                try await upToDate.loadPipeline(file, options: pipelineOptions)
            } else {
                (try await PipelineLoading.load(file, options: pipelineOptions), nil)
            }
        async let planKept: Void = RunSetUp.keepPlan(loaded, key: planKey, of: upToDate)
        _ = try InstanceSelection.ids(only, in: loaded.graph, option: "--only")
        let graph: ExecutionGraph
        do {
            graph = targets.isEmpty && only.isEmpty ? loaded.graph : try loaded.graph.restricted(to: targets + only)
        } catch {
            throw ValidationError("\(error)")
        }
        if dryRun {
            let session = await CacheSession.open(
                cache.location, maxSize: cache.cacheMaxSize, pipelineFile: file,
                storeRoot: cluster.store ?? loaded.store)
            TextOutput.standardOutput.write(try await DryRun.render(graph, session: session, reuse: cache.reuse))
            TextOutput.standardOutput.flush()
            await planKept
            return
        }
        try await RunDestinations.checkOutputDirectory(loaded.outputDirectory)
        if let trace { try await RunDestinations.checkFile(trace, option: "--trace") }
        if let report { try await RunDestinations.checkFile(report, option: "--report") }
        let onCluster = cluster.runsOnCluster(loaded)
        if onCluster, lint.mode != nil {
            throw ValidationError(
                "--lint traces the programs this process runs; it does not go with the slurm executor")
        }
        let fileAccessLint = try await lint.fileAccessLint(for: graph)
        let options = EngineOptions(
            jobs: jobs ?? (onCluster ? 100 : EngineOptions.defaultJobs), pools: loaded.pools, failFast: failFast)
        let presenter: RunPresenter
        do {
            presenter = try RunPresenter(
                graph: graph, pipeline: loaded.name, plain: noProgress, eventsPath: json ? "-" : events,
                tracePath: trace, recordsReport: report != nil, logs: logs.logs)
        } catch {
            throw ValidationError("--events: \(error)")
        }
        let forcing = try cache.reuse.forcing(in: graph)
        let session = await CacheSession.open(
            cache.location, maxSize: cache.cacheMaxSize, pipelineFile: file, storeRoot: cluster.store ?? loaded.store,
            flushingWrites: onCluster, prepared: upToDate?.store, remote: cache.remote)
        let clusterSession =
            onCluster
            ? try await ClusterSession.open(
                storeRoot: session.store.root, fusingEveryChain: cluster.fuse,
                exchange: try cluster.exchange(session: session, sharedStore: cluster.store ?? loaded.store)) : nil
        var startedFrom: (observing: Bool, known: KnownResults?)?
        if let upToDate, let start { startedFrom = upToDate.check.observe(session.storeSession, from: start) }
        let runCache = session.storeSession.runCache(
            reuse: !cache.reuse.noCache, forcing: forcing, known: startedFrom?.known)
        let resources = RunResources(
            blockingThreads: Engine.blockingThreads(for: options), fileAccessLint: fileAccessLint,
            streamedOutput: logs.streamedOutput(for: graph))
        let control = RunControl()
        let outcome = await presenter.displaying {
            await JobControl.run(
                control, hideDisplay: { presenter.hideDisplay() }, showDisplay: { presenter.showDisplay() }
            ) {
                await InterruptibleRun.run(resources: resources, restoringTerminalWith: { presenter.restoreTerminal() })
                {
                    var options = options
                    options.remote = clusterSession?.executor
                    let engine = Engine(options: options)
                    guard let clusterSession else {
                        return await engine.run(
                            graph, events: presenter.sink, resources: resources, cache: runCache, control: control)
                    }
                    return await clusterSession.running(resources: resources) {
                        await engine.run(
                            graph, events: presenter.sink, resources: resources, cache: runCache, control: control)
                    }
                }
            }
        }
        await clusterSession?.finish(
            cancelled: outcome.signal != nil, failed: outcome.report.hasFailures, resources: resources)
        // With the instances a fan-out added while it ran.
        let ran = graph.including(outcome.report)
        await resources.shutDown()
        // The snapshot and the cache's other files are written at once, and the summary rendered.
        async let snapshot: Void = {
            guard let upToDate, let start, startedFrom?.observing == true, outcome.signal == nil else { return }
            await upToDate.check.remember(
                outcome.report, of: ran, cache: runCache, pipeline: loaded, onCluster: onCluster,
                start: start, in: session.storeSession)
        }()
        async let summary = presenter.summary(of: outcome.report, graph: ran)
        // What the next `--explain` names the removed ids from, read before this run's are kept.
        let wholeGraph = targets.isEmpty && only.isEmpty && outcome.signal == nil
        let keepsIDs = StoreSession.keepsRunIDs(after: outcome.report, wholeGraph: wholeGraph)
        let previousIDs = keepsIDs && explain ? await session.store.lastRunIDs(pipeline: session.pipeline) : nil
        await session.finish(
            runCache, report: outcome.report, graph: ran, wholeGraph: wholeGraph, interrupted: outcome.signal != nil)
        await snapshot
        await planKept
        let outputsWritten = await presenter.finish(summary: await summary)
        if let report, !(await presenter.writeReport(outcome.report, graph: ran, to: report)) {
            throw ExitCode(CLIExitCode.operationFailed)
        }
        if explain {
            TextOutput.standardOutput.write(
                ExplanationPrinter.afterRun(runCache.decisions, of: ran, previousIDs: previousIDs))
            TextOutput.standardOutput.flush()
        }
        if let signal = outcome.signal { InterruptibleRun.endProcess(by: signal) }
        // Everything is written: the process ends here, leaving the run's state (every node, the
        // store's tables) to the system, which takes it back at once; freeing it piece by piece
        // took a tenth of a short run's time after a change.
        TextOutput.standardOutput.flush()
        TextOutput.standardError.flush()
        Self.exit(
            withError: outcome.report.hasFailures || !outputsWritten ? ExitCode(CLIExitCode.operationFailed) : nil)
    }
}
