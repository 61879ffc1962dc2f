import Foundation
import Synchronization
import TaskGraph
import UnixSignals

/// Runs work that SIGINT or SIGTERM cancels. A second signal ends the process at once, after
/// killing every child process group still alive and removing the temporary files of unfinished
/// atomic writes.
enum InterruptibleRun {
    /// The signal that cancelled a run.
    enum Signal: Sendable {
        case interrupt
        case terminate
    }

    /// What the work returned, and the signal that cancelled it, if any.
    struct Outcome<Result: Sendable>: Sendable {
        var report: Result
        var signal: Signal?
    }

    /// Runs `work` until it returns; the first signal cancels it.
    static func run<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) async -> Outcome<Result> {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        let received = SignalRecord()
        let workTask = Task { await work() }
        let listener = Task.detached {
            for await signal in signals {
                let kind: Signal = signal == .sigterm ? .terminate : .interrupt
                let isFirst = received.recordFirst(kind)
                if isFirst {
                    workTask.cancel()
                } else {
                    ChildProcess.killAllImmediately()
                    TemporaryFiles.shared.abandonAll()
                    _exit(kind == .terminate ? CLIExitCode.terminated : CLIExitCode.interrupted)
                }
            }
        }
        let result = await workTask.value
        listener.cancel()
        return Outcome(report: result, signal: received.first)
    }
}

/// The first signal received, shared between the listener and the caller.
private final class SignalRecord: Sendable {
    private let signal = Mutex<InterruptibleRun.Signal?>(nil)

    /// Records `kind` if no signal came before; returns whether it was the first.
    func recordFirst(_ kind: InterruptibleRun.Signal) -> Bool {
        signal.withLock { first in
            guard first == nil else { return false }
            first = kind
            return true
        }
    }

    /// The first signal, if any.
    var first: InterruptibleRun.Signal? { signal.withLock { $0 } }
}
