import Foundation
import Synchronization
import TaskGraphCore
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphCrypto
import TaskGraphReporting
import UnixSignals

/// SIGINT and SIGTERM for the whole process, trapped from the start of `main`.
///
/// While `run` is running work, the first signal cancels it and a second one ends the process
/// at once. At any other time (parsing arguments, loading or validating pipelines) there is
/// nothing to cancel, so any signal ends the process at once. Ending at once means: kill every
/// child process group still alive, remove the temporary files of unfinished atomic writes,
/// `_exit` with 130 (SIGINT) or 143 (SIGTERM).
enum InterruptibleRun {
    /// The signal that cancelled a run.
    enum Signal: Sendable {
        case interrupt
        case terminate

        /// The documented exit code for a process ended by this signal.
        var exitCode: Int32 { self == .terminate ? CLIExitCode.terminated : CLIExitCode.interrupted }
    }

    /// What the work returned, and the signal that cancelled it, if any.
    struct Outcome<Result: Sendable>: Sendable {
        var report: Result
        var signal: Signal?
    }

    /// What the listener does with each signal.
    private struct State {
        /// Cancels the work `run` is running; nil when none is.
        var cancelWork: (@Sendable () -> Void)?
        /// The signal that cancelled the current work, if any.
        var first: Signal?
        /// The resources of the current work: its children and temporary files.
        var resources: RunResources?
    }

    private static let state = Locked(State())

    /// Traps SIGINT and SIGTERM, replacing their default action (death by the signal, which the
    /// exit code table does not promise) for the rest of the process. Call once, first thing.
    static func trapSignals() async {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        Task.detached {
            for await signal in signals {
                handle(signal == .sigterm ? .terminate : .interrupt)
            }
        }
    }

    /// Runs `work`, which uses `resources`, until it returns; the first signal meanwhile cancels
    /// it, a second one kills the children of `resources` and removes its temporary files.
    static func run<Result: Sendable>(
        resources: RunResources, _ work: @escaping @Sendable () async -> Result
    ) async -> Outcome<Result> {
        let workTask = Task { await work() }
        state.withLock { $0 = State(cancelWork: { workTask.cancel() }, first: nil, resources: resources) }
        let result = await workTask.value
        let signal = state.withLock { state in
            state.cancelWork = nil
            state.resources = nil
            return state.first
        }
        return Outcome(report: result, signal: signal)
    }

    /// Cancels the running work on its first signal; otherwise ends the process.
    private static func handle(_ signal: Signal) {
        let cancel = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.first == nil, let cancelWork = state.cancelWork else { return nil }
            state.first = signal
            return cancelWork
        }
        guard let cancel else { exitNow(signal) }
        cancel()
    }

    /// Kills what is still running, removes unfinished temporary files and exits.
    private static func exitNow(_ signal: Signal) -> Never {
        state.withLock { $0.resources }?.killAllImmediately()
        _exit(signal.exitCode)
    }
}
