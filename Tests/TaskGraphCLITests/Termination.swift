import Foundation

/// How a process ended: it exited with a status, or a signal killed it (what `waitpid` tells
/// apart with `WIFEXITED` and `WIFSIGNALED`; a shell reports the second as 128 + the signal).
enum Termination: Equatable, CustomStringConvertible {
    case exited(Int32)
    case killed(by: Int32)

    /// How `process`, which has ended, ended.
    init(_ process: Process) {
        switch process.terminationReason {
        case .exit: self = .exited(process.terminationStatus)
        case .uncaughtSignal: self = .killed(by: process.terminationStatus)
        @unknown default: self = .exited(process.terminationStatus)
        }
    }

    var description: String {
        switch self {
        case .exited(let status): "exit \(status)"
        case .killed(let signal): "killed by signal \(signal)"
        }
    }
}
