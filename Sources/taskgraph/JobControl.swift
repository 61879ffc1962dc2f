import Dispatch
import Foundation
import TaskGraphCore

/// Ctrl-Z, `fg`, `bg` and SIGUSR1 for the whole process.
///
/// `exec` children run in process groups of their own, so the terminal's SIGTSTP (Ctrl-Z)
/// reaches taskgraph alone. On SIGTSTP during a run taskgraph pauses it (nothing starts, every
/// child's group gets SIGSTOP, time limits stop counting), erases the live display and shows the
/// cursor, then stops itself. On SIGCONT (`fg`, `bg`) it draws the display again and resumes the
/// run: the children get SIGCONT, what is ready starts. SIGUSR1 pauses or resumes the run
/// without stopping the process, for runs in the background or under a supervisor. Outside a
/// run SIGTSTP just stops the process.
enum JobControl {
    private struct State {
        /// Pauses the current run; nil when none is under way.
        var control: RunControl?
        /// Puts the live display away before the process stops, and back once continued.
        var hideDisplay: (@Sendable () -> Void)?
        var showDisplay: (@Sendable () -> Void)?
        /// Whether the process stopped itself on SIGTSTP and has not been continued yet.
        var isStopped = false
        /// Whether SIGUSR1 paused the run.
        var isPausedByUser = false
    }

    private static let state = Locked(State())

    /// Handles SIGTSTP until the calling task is cancelled. Start it first thing, beside the
    /// command in one task group, from nonisolated code (a Dispatch handler made in main-actor
    /// code traps when Dispatch calls it from another queue).
    ///
    /// UnixSignals, which handles every other signal, does not offer SIGTSTP; as it does for
    /// those, the signal is ignored and a Dispatch source reports it.
    static func handleTerminalStops() async {
        signal(SIGTSTP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
        let (stops, stop) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        source.setEventHandler { stop.yield() }
        source.resume()
        await withTaskCancellationHandler {
            for await _ in stops { stopProcess() }
        } onCancel: {
            stop.finish()
        }
        source.cancel()
    }

    /// Runs `body`, a run that `control` pauses, with the display put away while the process is
    /// stopped by `hideDisplay` and shown again by `showDisplay`.
    static func run<Result>(
        _ control: RunControl, hideDisplay: @escaping @Sendable () -> Void,
        showDisplay: @escaping @Sendable () -> Void, _ body: () async -> Result
    ) async -> Result {
        state.withLock { $0 = State(control: control, hideDisplay: hideDisplay, showDisplay: showDisplay) }
        let result = await body()
        state.withLock { $0 = State() }
        return result
    }

    /// SIGCONT: after a stop of our own, shows the display and resumes the run (unless SIGUSR1
    /// paused it).
    static func continued() {
        let (control, showDisplay, resumes) = state.withLock {
            state -> (RunControl?, (@Sendable () -> Void)?, Bool) in
            guard state.isStopped else { return (nil, nil, false) }
            state.isStopped = false
            return (state.control, state.showDisplay, !state.isPausedByUser)
        }
        showDisplay?()
        if resumes { control?.resume() }
    }

    /// SIGUSR1: pauses the run, or resumes it.
    static func togglePause() {
        let (control, paused, stopped) = state.withLock { state in
            state.isPausedByUser.toggle()
            return (state.control, state.isPausedByUser, state.isStopped)
        }
        if paused { control?.pause() } else if !stopped { control?.resume() }
    }

    /// SIGTSTP: pauses the run, puts the display away, and stops the process until SIGCONT.
    private static func stopProcess() {
        let (control, hideDisplay) = state.withLock { state in
            state.isStopped = state.control != nil
            return (state.control, state.hideDisplay)
        }
        control?.pause()
        hideDisplay?()
        kill(getpid(), SIGSTOP)
    }
}
