import Foundation
import TaskGraphCore
import TaskGraphReporting

/// `run FILE --watch`: runs the pipeline, then watches the pipeline file, every file its
/// operations read (`load` paths, `exec` inputs, the directories of glob matches) and runs it
/// again when one changes, reusing what the change does not reach. A change during a run
/// cancels it and starts again. Each run is a `taskgraph run` of its own, without `--watch`,
/// sharing the terminal: its display, summary and exit are those of any run. The first signal
/// ends the watch, after the run in progress has ended as a cancelled run does.
struct WatchLoop {
    /// The pipeline file.
    var file: String
    /// What the file is read with (its variables and environment, for the files it names).
    var options: PipelineOptions
    /// The arguments of each run: this process's own, without `--watch`.
    var runArguments: [String]
    /// What a run writes besides its outputs (the store, `--events`, `--trace`, `--report`),
    /// as given: no change there starts a run.
    var ignoring: [String]

    /// How long a burst of changes may go on before the next run starts.
    static let quietPeriod = Duration.milliseconds(100)

    /// Runs and watches until a signal ends it; then ends the process by that signal.
    func run() async throws -> Never {
        let resources = RunResources(blockingThreads: 1)
        let outcome = await InterruptibleRun.run(resources: resources) { await cycles() }
        await resources.shutDown()
        try outcome.report.get()
        InterruptibleRun.endProcess(by: outcome.signal ?? .interrupt)
    }

    /// Runs, then waits for a change, until cancelled.
    private func cycles() async -> Result<Void, any Error> {
        let cancelled = Locked(false)
        let child = Locked<Process?>(nil)
        return await withTaskCancellationHandler {
            do {
                var changed: [String] = []
                while !cancelled.withLock({ $0 }) {
                    if !changed.isEmpty { Self.say("\(Self.describe(changed)) changed; running again") }
                    let watcher = try await makeWatcher()
                    let (process, exit) = try startRun()
                    child.withLock { $0 = process }
                    changed = await changes(of: watcher, during: process, exit: exit)
                    child.withLock { $0 = nil }
                    if cancelled.withLock({ $0 }) { break }
                    if changed.isEmpty {
                        Self.say("watching for changes (Ctrl-C ends)")
                        changed = try await watcher.nextChange(quietPeriod: Self.quietPeriod) {
                            cancelled.withLock { $0 }
                        }
                    }
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
            // The terminal's Ctrl-C reaches the run as well; a signal sent to this process alone
            // is passed on (the run takes a copy within 500 ms for the same signal).
            child.withLock { $0 }?.interrupt()
        }
    }

    /// Waits for a run (`process`, whose `exit` finishes when it ends) to end; a change meanwhile
    /// interrupts it, as Ctrl-C would. Returns the changes seen.
    private func changes(
        of watcher: FileWatcher, during process: Process, exit: AsyncStream<Process>
    ) async -> [String] {
        let ended = Locked(false)
        async let changes: [String] = {
            let changes = (try? await watcher.nextChange(quietPeriod: Self.quietPeriod) { ended.withLock { $0 } }) ?? []
            if !changes.isEmpty, !ended.withLock({ $0 }) { process.interrupt() }
            return changes
        }()
        for await _ in exit {}
        ended.withLock { $0 = true }
        return await changes
    }

    /// Starts one run: the process, and a stream that finishes when it has ended (without a
    /// thread held meanwhile).
    private func startRun() throws -> (Process, AsyncStream<Process>) {
        let process = Process()
        process.executableURL = Bundle.main.executableURL
        process.arguments = runArguments
        let (exit, ended) = AsyncStream<Process>.makeStream()
        process.terminationHandler = { _ in ended.finish() }
        try process.run()
        return (process, exit)
    }

    /// A watcher of what the pipeline reads, as it is now: the directory of the file and of each
    /// file it includes, the directory of every file an operation reads and of every `foreach`
    /// glob (below it, for a `**` pattern); never the output directory, the files operations
    /// write, or hidden and backup files. A file that does not load (being edited) is watched
    /// alone, with its directory.
    private func makeWatcher() async throws -> FileWatcher {
        let file = self.file
        let options = self.options
        let pipeline = try? await BlockingIO.run { try Pipeline.load(file: file, options: options) }
        let written = Set(
            pipeline?.graph.nodes.flatMap { ($0.action as? any CacheableAction)?.outputFiles ?? [] } ?? [])
        let skipped = ((pipeline.map { [$0.outputDirectory] } ?? []) + ignoring.map(Self.absolute)).map { $0 + "/" }
        let watcher = try FileWatcher { path in
            let name = path.split(separator: "/").last ?? ""
            return name.hasPrefix(".") || name.hasSuffix("~") || written.contains(path)
                || skipped.contains { (path + "/").hasPrefix($0) }
        }
        for watched in [file] + (pipeline?.includedFiles ?? []) {
            try watcher.watch(Self.absolute(watched + "/.."), recursive: false)
        }
        let reads = pipeline?.graph.nodes.flatMap { ($0.action as? any FileReadingAction)?.filesRead ?? [] } ?? []
        for read in reads + (pipeline?.globPatterns ?? []) {
            let fixed = read.split(separator: "/", omittingEmptySubsequences: false)
                .prefix { !$0.contains(where: { "*?[".contains($0) }) }
            let isPattern = fixed.count < read.split(separator: "/", omittingEmptySubsequences: false).count
            let parent = isPattern ? fixed.joined(separator: "/") : String(fixed.dropLast().joined(separator: "/"))
            try watcher.watch(parent.isEmpty ? "/" : parent, recursive: read.contains("**"))
        }
        return watcher
    }

    /// `a.jpg`, `a.jpg and b.jpg`, or `a.jpg and 3 more`, as paths relative to the current
    /// directory where they are below it.
    private static func describe(_ paths: [String]) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        let shown = paths.map { $0.hasPrefix(current) ? String($0.dropFirst(current.count)) : $0 }
        switch shown.count {
        case 1: return shown[0]
        case 2: return shown[0] + " and " + shown[1]
        default: return shown[0] + " and \(shown.count - 1) more"
        }
    }

    /// `path` made absolute against the current directory, without `.` and `..` components.
    private static func absolute(_ path: String) -> String {
        PathResolver.normalized(PathResolver.resolve(path, in: FileManager.default.currentDirectoryPath))
    }

    private static func say(_ line: String) {
        TextOutput.standardError.write("taskgraph: \(line)\n")
        TextOutput.standardError.flush()
    }
}
