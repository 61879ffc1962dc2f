/// Why a child process could not be started or waited for.
public enum ChildProcessError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The argument list was empty, so there was no program to run.
    case emptyCommand
    /// The program does not exist: not on PATH, or not at the path given (one with a slash).
    case programNotFound(String)
    /// Starting the program failed; carries the program and the system's reason.
    case spawnFailed(String, String)
    /// The requested working directory does not exist.
    case workingDirectoryMissing(String)
    /// What watches children could not be made (epoll, eventfd: too many open files, no
    /// memory); carries the call that failed and the system's reason.
    case failedToMonitor(call: String, reason: String)
    /// Waiting for the program failed, so how it ended is unknown (ECHILD: something else
    /// reaped it); carries the program, the call and the system's reason.
    case waitFailed(program: String, call: String, reason: String)
    /// The program named with a slash is a directory.
    case programIsADirectory(String)
    /// The requested working directory is a file (or another thing that is not a directory).
    case workingDirectoryNotADirectory(String)

    /// Why `name` (to be run in `workingDirectory`) was not found: it is a directory, or
    /// nothing runnable is there.
    package static func programMissing(_ name: String, in workingDirectory: String?) -> ChildProcessError {
        guard name.contains("/") else { return .programNotFound(name) }
        let path = name.hasPrefix("/") || workingDirectory == nil ? name : workingDirectory! + "/" + name
        return FileKind(at: path) == .directory ? .programIsADirectory(name) : .programNotFound(name)
    }

    /// Why `path` cannot be the working directory, or nil when it is a directory.
    static func workingDirectoryProblem(_ path: String) -> ChildProcessError? {
        switch FileKind(at: path) {
        case .directory: nil
        case .missing: .workingDirectoryMissing(path)
        case .regular, .other: .workingDirectoryNotADirectory(path)
        }
    }

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
        case .programIsADirectory(let program):
            "program '\(program)' is a directory, not a program"
        case .workingDirectoryNotADirectory(let path):
            "working directory '\(path)' is not a directory"
        }
    }
}
