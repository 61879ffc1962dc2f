import Foundation
import Synchronization
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting
import UnixSignals

/// SIGINT, SIGTERM and SIGHUP for the whole process, trapped from the start of `main`, and a
/// broken output pipe (SIGPIPE is ignored: a write to a closed pipe fails with `EPIPE`, which
/// `TextOutput` hands to `brokenPipe()`).
///
/// While `run` is running work, the first signal cancels it and a second one ends the process
/// at once. At any other time (parsing arguments, loading or validating pipelines) there is
/// nothing to cancel, so any signal ends the process at once. Ending at once means: kill every
/// child process group still alive, remove the temporary files of unfinished atomic writes,
/// restore the terminal, then die by the signal (`endProcess(by:)`).
enum InterruptibleRun {
    /// The signal that cancelled a run.
    enum Signal: Sendable {
        case interrupt
        case terminate
        /// The terminal was closed or the connection dropped.
        case hangup
        /// Standard output or error is a pipe whose reader has gone.
        case brokenPipe

        /// The signal's number.
        var number: Int32 {
            switch self {
            case .interrupt: SIGINT
            case .terminate: SIGTERM
            case .hangup: SIGHUP
            case .brokenPipe: SIGPIPE
            }
        }

        /// The status a shell reports for a process killed by this signal (128 + its number).
        var exitCode: Int32 { 128 + number }
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
        /// When the first signal came: kept after the work ends, so that the copy of it a
        /// process group receives (`timeout -s INT`, a terminal's Ctrl-C) does not count as a
        /// second.
        var firstAt: ContinuousClock.Instant?
        /// Puts the terminal back (live display erased, cursor shown) before the process ends
        /// at once.
        var restoreTerminal: (@Sendable () -> Void)?
        /// The resources of the current work: its children and temporary files.
        var resources: RunResources?
    }

    private static let state = Locked(State())

    /// How long after the first signal another one counts as a second: a signal sent to the
    /// process and to its group arrives twice within microseconds, a person's second Ctrl-C
    /// comes later.
    static let secondSignalDelay = Duration.milliseconds(500)

    /// Handles SIGINT and SIGTERM, and hands SIGCONT and SIGUSR1 to `JobControl`, which
    /// `signals` traps, until the calling task is cancelled. Start it first thing, beside the
    /// command in one task group.
    static func handleSignals(_ signals: UnixSignalsSequence) async {
        for await signal in signals {
            switch signal {
            case .sigterm: handle(.terminate)
            case .sighup: handle(.hangup)
            case .sigcont: JobControl.continued()
            case .sigusr1: JobControl.togglePause()
            default: handle(.interrupt)
            }
        }
    }

    /// Runs `work`, which uses `resources`, until it returns; the first signal meanwhile cancels
    /// it, a second one kills the children of `resources`, removes its temporary files and
    /// ends the process.
    /// - Parameter restoreTerminal: puts the terminal back if a second signal ends the process
    ///   before `work` returns.
    static func run<Result: Sendable>(
        resources: RunResources, restoringTerminalWith restoreTerminal: (@Sendable () -> Void)? = nil,
        _ work: @escaping @Sendable () async -> Result
    ) async -> Outcome<Result> {
        // Started under the lock, so a signal sees either no work at all or the work together
        // with the resources and terminal it must clean up.
        let workTask = state.withLock { state in
            let task = Task { await work() }
            state = State(
                cancelWork: { task.cancel() }, first: nil, restoreTerminal: restoreTerminal, resources: resources)
            return task
        }
        let result = await workTask.value
        let signal = state.withLock { state in
            state.cancelWork = nil
            state.resources = nil
            return state.first
        }
        return Outcome(report: result, signal: signal)
    }

    /// Ends the process by `signal`, as if it had never been trapped: restores the signal's
    /// default action and raises it, so that a shell sees the true cause of death (status
    /// 128 + number) and stops a loop or script, as make, bash and SwiftPM's Cancellator do.
    /// Call once everything is cleaned up and printed.
    static func endProcess(by signal: Signal) -> Never {
        Foundation.signal(signal.number, SIG_DFL)
        // Dispatch blocks trapped signals in the threads that received one; unblock it here so
        // that raising it takes effect at once.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, signal.number)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        raise(signal.number)
        _exit(signal.exitCode)
    }

    /// A write to standard output or error failed with `EPIPE`: cancels the running work as a
    /// signal would (its end is then by SIGPIPE); outside a run, ends the process. Once a run
    /// is cancelled, a further broken pipe (the other output to the same pipe) changes nothing.
    static func brokenPipe() {
        guard !state.withLock({ $0.cancelWork != nil && $0.first != nil }) else { return }
        handle(.brokenPipe)
    }

    /// Cancels the running work on its first signal; ignores a signal that comes within
    /// `secondSignalDelay` of it; otherwise ends the process.
    private static func handle(_ signal: Signal) {
        let now = ContinuousClock.now
        let action = state.withLock { state -> SignalAction in
            if let firstAt = state.firstAt, now - firstAt < secondSignalDelay { return .ignore }
            guard state.first == nil, let cancelWork = state.cancelWork else { return .endProcess }
            state.first = signal
            state.firstAt = now
            return .cancel(cancelWork)
        }
        switch action {
        case .cancel(let cancelWork): cancelWork()
        case .ignore: break
        case .endProcess: exitNow(signal)
        }
    }

    /// What `handle` does with a signal.
    private enum SignalAction {
        case cancel(@Sendable () -> Void)
        case ignore
        case endProcess
    }

    /// Kills what is still running, removes unfinished temporary files, restores the terminal
    /// and dies by `signal`.
    private static func exitNow(_ signal: Signal) -> Never {
        let (resources, restoreTerminal) = state.withLock { ($0.resources, $0.restoreTerminal) }
        resources?.killAllImmediately()
        restoreTerminal?()
        endProcess(by: signal)
    }
}
