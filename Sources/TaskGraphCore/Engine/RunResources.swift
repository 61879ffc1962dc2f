import Foundation

/// Everything a run uses beyond its own tasks: its blocking-IO threads, its working-memory
/// budget, its temporary files and its child processes. The library keeps no such state of its
/// own: two runs in one process share nothing, and after `shutDown()` no thread of the run is
/// left.
///
/// `Engine.run` makes one for each run and shuts it down afterwards, unless the caller passes its
/// own (then the caller shuts it down; the command-line tool does, so that a second Ctrl-C can
/// `killAllImmediately()`). Actions reach it as `TaskContext.resources`; library code below an
/// action (codecs, kernels) through `RunResources.current`, which the engine sets for the tasks of
/// its run only.
public final class RunResources: Sendable {
    /// The threads for blocking work (file IO, codecs, kernels).
    public let blockingIO: BlockingThreadPool
    /// Bounds the working memory decodes and kernels hold at once.
    package let workingMemory: WorkingMemoryBudget
    /// The temporary files of atomic writes in progress.
    public let temporaryFiles: TemporaryFiles
    /// The child processes of `exec`, watched by one reaper thread.
    public let childProcesses: ChildProcesses
    /// The programs `exec` cache keys name, each found once per run: the ones its children
    /// are started from (`ChildProcesses.programs`).
    package var programs: ProgramLocations { childProcesses.programs }
    /// With `run --lint`: `exec` programs run under the file-access tracer (`FileAccessLint`).
    public let fileAccessLint: FileAccessLint?
    /// Which lines `exec` programs write are reported as they come (`TaskContext.reportOutput`);
    /// nil: none.
    public let streamedOutput: StreamedOutput?

    /// The default number of blocking-IO threads: two per core, so CPU-bound codecs and kernels
    /// keep every core busy while as many threads wait on disk or other short blocking calls.
    public static var defaultBlockingThreads: Int { 2 * ProcessInfo.processInfo.activeProcessorCount }

    /// The working memory decodes and kernels may reserve at once: a filter's second image, or
    /// the blur's buffers, at a time, with progressive decodes alongside.
    public static let defaultWorkingMemoryLimit = 64 << 20

    /// Resources for one run; no thread is started until work arrives.
    /// - Parameters:
    ///   - blockingThreads: The most blocking-IO threads at once.
    ///   - workingMemoryLimit: Bytes of working memory decodes and kernels may reserve at once.
    ///   - fileAccessLint: With `run --lint`: trace the files `exec` programs read and write.
    ///   - streamedOutput: Which lines of `exec` programs to report as they are written.
    public init(
        blockingThreads: Int = RunResources.defaultBlockingThreads,
        workingMemoryLimit: Int = RunResources.defaultWorkingMemoryLimit,
        fileAccessLint: FileAccessLint? = nil, streamedOutput: StreamedOutput? = nil
    ) {
        self.fileAccessLint = fileAccessLint
        self.streamedOutput = streamedOutput
        blockingIO = BlockingThreadPool(maximumThreads: blockingThreads)
        workingMemory = WorkingMemoryBudget(limit: workingMemoryLimit)
        temporaryFiles = TemporaryFiles()
        childProcesses = ChildProcesses()
    }

    /// The resources of the run the current task belongs to: set by `Engine.run` for the tasks it
    /// starts, so it is scoped to that run, not process state. Nil outside a run; blocking work
    /// then gets a thread of its own (`BlockingIO`).
    @TaskLocal public static var current: RunResources?

    /// Runs `body` with these resources as `current`, their threads as
    /// `BlockingThreadPool.current` and their budget as `WorkingMemoryBudget.current`.
    package func withCurrent<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        try await RunResources.$current.withValue(self) {
            try await BlockingThreadPool.$current.withValue(blockingIO) {
                try await WorkingMemoryBudget.$current.withValue(workingMemory, operation: body)
            }
        }
    }

    /// Waits until every blocking-IO thread and the reaper thread have exited. Call it after the
    /// run, when no work or child is left; work submitted later gets a thread of its own.
    public func shutDown() async {
        await childProcesses.shutDown()
        await blockingIO.shutDown()
    }

    /// Sends SIGKILL to every child process group still running, refuses to start more, and
    /// removes every unfinished temporary file. For a process about to end at once (a second Ctrl-C);
    /// never blocks for longer than a write in progress takes to create or rename its file.
    public func killAllImmediately() {
        childProcesses.killAllImmediately()
        temporaryFiles.abandonAll()
    }
}
