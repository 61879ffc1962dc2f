/// Why a child process could not be started.
enum ChildProcessError: Error, CustomStringConvertible, Equatable {
    /// The argument list was empty, so there was no program to run.
    case emptyCommand
    /// The program does not exist: not on PATH, or not at the path given (one with a slash).
    case programNotFound(String)
    /// Starting the program failed; carries the program and the system's reason.
    case spawnFailed(String, String)
    /// The requested working directory does not exist (or is not a directory).
    case workingDirectoryMissing(String)

    /// A message for the user.
    var description: String {
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
        }
    }
}
