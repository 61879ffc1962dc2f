import Foundation

/// The child processes of one run: each runs in its own process group, and one reaper thread
/// (`ChildReaper`) spawns every child, reads its output, notices its exit and reaps it, so a
/// running child holds no thread and starting one costs no hop but the one to the reaper.
/// Cancellable.
public final class ChildProcesses: Sendable {
    /// The groups that may be signalled.
    let registry = ChildRegistry()
    /// The programs children are started from, each found on its `PATH` once per run (a
    /// handful of `stat`s every spawn otherwise): what the cache keys of `exec` name too.
    package let programs = ProgramLocations()
    /// Spawns the children, reads their output and reaps them.
    private let reaper: ChildReaper

    /// The children of a run.
    /// - Parameter pollsExits: Find exits by polling `waitid`, as without pidfds (for tests).
    package init(pollsExits: Bool = false) {
        reaper = ChildReaper(registry: registry, programs: programs, pollsExits: pollsExits)
    }

    /// A started child: its pid, which is also its process group id, and its pipes' read ends.
    struct Child: Sendable {
        /// The child's key in the registry.
        let spawnNumber: UInt64
        /// The pid of the child and the id of its process group.
        let pid: pid_t
        /// The write end of the child's standard input, or -1 when it reads /dev/null.
        let standardInput: Int32
        /// The read end of the child's standard output.
        let standardOutput: Int32
        /// The read end of the child's standard error.
        let standardError: Int32
    }

    /// Told, on the reaper thread, each chunk a child writes to `stream` as it is read: keep it
    /// quick.
    package typealias OutputObserver = @Sendable (_ stream: OutputLine.Stream, _ chunk: ArraySlice<UInt8>) -> Void

    /// The most bytes of a program's standard output `run` keeps by default.
    package static let defaultOutputLimit = 64 << 20

    /// Runs a program to completion and collects its output.
    ///
    /// - Parameters:
    ///   - arguments: argv; `arguments[0]` is looked up on the PATH of `environment` unless it
    ///     contains "/".
    ///   - environment: The complete environment for the child.
    ///   - workingDirectory: The child's working directory; nil inherits ours.
    ///   - outputLimit: The most bytes of standard output kept.
    ///   - errorTailLimit: How many bytes from the end of standard error are kept.
    ///   - gracePeriod: Time between SIGTERM and SIGKILL when the task is cancelled.
    ///   - standardInput: Bytes written to the child's standard input (by the reaper thread, as
    ///     the child reads them); nil gives it /dev/null.
    ///   - observer: Told each chunk of output as it arrives.
    /// - Throws: `ChildProcessError` when the program cannot be started; `CancellationError` if
    ///   the task was cancelled, only after the whole group was signalled and the child reaped.
    package func run(
        arguments: [String], environment: [String: String], workingDirectory: String?,
        outputLimit: Int = defaultOutputLimit, errorTailLimit: Int = 64 << 10,
        gracePeriod: Duration = .seconds(2), standardInput: Data? = nil, observer: OutputObserver? = nil
    ) async throws -> ProcessResult {
        let launch = ChildLaunch(
            arguments: arguments, environment: environment, workingDirectory: workingDirectory,
            outputLimit: outputLimit, errorTailLimit: errorTailLimit, gracePeriod: gracePeriod,
            standardInput: standardInput, observer: observer)
        let reaper = reaper
        let result = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                reaper.start(launch, whenReaped: continuation)
            }
        } onCancel: {
            // Not spawned yet: the reaper thread spawns nothing, or terminates what it spawned.
            if let child = launch.cancel() {
                reaper.terminate(child, gracePeriod: gracePeriod)
            }
        }
        if let usage = result.usage { UsageMeter.current?.add(usage) }
        try Task.checkCancellation()
        return result
    }

    /// Sends SIGKILL to the process group of every child still running, and refuses to start
    /// any more (another thread may be about to spawn one). For a second Ctrl-C just before
    /// the process ends.
    public func killAllImmediately() {
        registry.killAll()
    }

    /// Stops every running child's process group (SIGSTOP), and every child started later, or
    /// continues them all (SIGCONT): for a paused run.
    package func setStopped(_ stopped: Bool) {
        registry.setStopped(stopped)
    }

    /// Whether the reaper thread runs (for tests).
    var reaperIsRunning: Bool { reaper.isRunning }

    /// Waits until the reaper thread has exited; it does once no child is left.
    package func shutDown() async {
        await reaper.waitUntilIdle()
    }

    /// The system's text for the error number `code`.
    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
