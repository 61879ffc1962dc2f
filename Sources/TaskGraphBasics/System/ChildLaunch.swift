import Foundation

/// One child asked of the reaper thread (`ChildReaper.start`): what to start, how much of its
/// output to keep, and whether its task was cancelled before, while or after the reaper thread
/// spawned it. The reaper thread spawns it, so starting a child costs the waiting task no hop to
/// another thread but the one to the reaper.
final class ChildLaunch: Sendable {
    /// argv; `arguments[0]` is looked up on the PATH of `environment` unless it contains "/".
    let arguments: [String]
    /// The complete environment of the child.
    let environment: [String: String]
    /// The child's working directory; nil inherits ours.
    let workingDirectory: String?
    /// The most bytes of standard output kept.
    let outputLimit: Int
    /// How many bytes from the end of standard error are kept.
    let errorTailLimit: Int
    /// Time between SIGTERM and SIGKILL once cancelled.
    let gracePeriod: Duration
    /// The bytes written to the child's standard input; nil gives it /dev/null.
    let standardInput: Data?
    /// Told each chunk of output as it is read, on the reaper thread.
    let observer: ChildProcesses.OutputObserver?

    private struct State {
        var cancelled = false
        /// Set once spawned.
        var child: ChildProcesses.Child?
    }

    private let state = Locked(State())

    /// A child to start; see `ChildProcesses.run` for the parameters.
    init(
        arguments: [String], environment: [String: String], workingDirectory: String?,
        outputLimit: Int, errorTailLimit: Int, gracePeriod: Duration, standardInput: Data?,
        observer: ChildProcesses.OutputObserver?
    ) {
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.outputLimit = outputLimit
        self.errorTailLimit = errorTailLimit
        self.gracePeriod = gracePeriod
        self.standardInput = standardInput
        self.observer = observer
    }

    /// Notes that the task was cancelled. Never blocks.
    ///
    /// - Returns: The child if it was spawned already: the caller terminates it. Nil otherwise:
    ///   the reaper thread then spawns nothing, or terminates what it has just spawned.
    func cancel() -> ChildProcesses.Child? {
        state.withLock { state in
            state.cancelled = true
            return state.child
        }
    }

    /// Whether the task was cancelled before the child was spawned.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Records the spawned child.
    ///
    /// - Returns: Whether the task was cancelled meanwhile, unseen by `cancel()`'s caller: the
    ///   reaper thread then terminates the child.
    func started(_ child: ChildProcesses.Child) -> Bool {
        state.withLock { state in
            state.child = child
            return state.cancelled
        }
    }
}
