/// Why a child process could not be started or waited for.
public enum ChildProcessError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The argument list was empty, so there was no program to run.
    case emptyCommand
    /// The program does not exist: not on PATH, or not at the path given (one with a slash).
    case programNotFound(String)
    /// Starting the program failed; carries the program and the system's reason.
    case spawnFailed(String, String)
    /// The requested working directory does not exist (or is not a directory).
    case workingDirectoryMissing(String)
    /// What watches children could not be made (epoll, eventfd: too many open files, no
    /// memory); carries the call that failed and the system's reason.
    case failedToMonitor(call: String, reason: String)
    /// Waiting for the program failed, so how it ended is unknown (ECHILD: something else
    /// reaped it); carries the program, the call and the system's reason.
    case waitFailed(program: String, call: String, reason: String)

    /// A message for the user.
    public var description: String {
        switch self {
        case .emptyCommand:
            "cannot start an empty command"
        case .programNotFound(let program) where program.contains("/"):
            "program '\(program)' does not exist"
        case .programNotFound(let program):
            "program '\(program)' not found on PATH"
        case .spawnFailed(let program, let reason):
            "cannot start '\(program)': \(reason)"
        case .workingDirectoryMissing(let path):
            "working directory '\(path)' does not exist"
        case .failedToMonitor(let call, let reason):
            "cannot watch child processes: \(call): \(reason)"
        case .waitFailed(let program, let call, let reason):
            "cannot learn how '\(program)' ended: \(call): \(reason)"
        }
    }
}
