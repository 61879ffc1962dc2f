import Dispatch
import Foundation
import Synchronization

/// Runs programs in their own process group and reaps them, cancellable.
///
/// One `BlockingIO` thread per child reads both pipes and reaps it. Needing only one thread
/// keeps children from waiting on each other when `BlockingIO` is at its thread cap.
public enum ChildProcess {
    /// Milliseconds between checks for the leader's exit while its pipes are still open.
    private static let exitCheckInterval: Int32 = 50

    /// How long the pipes may stay open after the leader exited and its group was killed (only a
    /// process that left the group can hold them); later output is dropped.
    private static let drainTimeout = Duration.seconds(1)

    /// The children spawned and not yet reaped. A group is only signalled while its leader is in
    /// here: an unreaped leader keeps its pid, the group id, from being reused.
    static let registry = Locked(Registry())

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
    /// - Throws: `ChildProcessError` when the program cannot be started; `CancellationError` if
    ///   the task was cancelled, only after the whole group was signalled and the child reaped.
    static func run(
        arguments: [String], environment: [String: String], workingDirectory: String?,
        outputLimit: Int = 64 << 20, errorTailLimit: Int = 64 << 10,
        gracePeriod: Duration = .seconds(2)
    ) async throws -> ProcessResult {
        let child = try await BlockingIO.run {
            try spawn(arguments: arguments, environment: environment, in: workingDirectory)
        }
        // Entered after spawning, so a cancellation during the spawn fires onCancel right away.
        let result = await withTaskCancellationHandler {
            await BlockingIO.runIgnoringCancellation {
                collect(child, outputLimit: outputLimit, errorTailLimit: errorTailLimit)
            }
        } onCancel: {
            terminate(child, gracePeriod: gracePeriod)
        }
        try Task.checkCancellation()
        return result
    }

    /// Sends SIGKILL to the process group of every child still running, and refuses to start
    /// any more (another thread may be about to spawn one). For a second Ctrl-C just before
    /// `_exit`.
    public static func killAllImmediately() {
        registry.withLock { registry in
            registry.closed = true
            for leader in registry.leaders.values {
                kill(-leader, SIGKILL)
            }
        }
    }

    /// Leaders of the process groups not reaped yet, by a number never reused (unlike pids).
    struct Registry {
        /// The pid of each child still registered, by its spawn number.
        var leaders: [UInt64: pid_t] = [:]
        /// The number of children spawned so far.
        var spawnCount: UInt64 = 0
        /// Set by `killAllImmediately`: no child starts afterwards.
        var closed = false
    }

    /// A started child: its pid, which is also its process group id, and its pipes' read ends.
    struct Child: Sendable {
        /// The child's key in `registry`.
        let spawnNumber: UInt64
        /// The pid of the child and the id of its process group.
        let pid: pid_t
        /// The read end of the child's standard output.
        let standardOutput: Int32
        /// The read end of the child's standard error.
        let standardError: Int32
    }

    /// Sends SIGTERM to the child's group now and SIGKILL after `gracePeriod`. Never blocks.
    private static func terminate(_ child: Child, gracePeriod: Duration) {
        signalGroup(of: child, SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + gracePeriod / .seconds(1)) {
            signalGroup(of: child, SIGKILL)
        }
    }

    /// Sends `signal` to the child's process group unless the child was already reaped.
    private static func signalGroup(of child: Child, _ signal: Int32) {
        registry.withLock { registry in
            if registry.leaders[child.spawnNumber] != nil {
                kill(-child.pid, signal)
            }
        }
    }

    /// Reads both pipes to their end while watching for the leader's exit; once it exited,
    /// kills what is left of its group, reaps it and returns what it left behind.
    private static func collect(
        _ child: Child, outputLimit: Int, errorTailLimit: Int
    ) -> ProcessResult {
        var collector = OutputCollector(
            standardOutput: child.standardOutput, standardError: child.standardError,
            outputLimit: outputLimit, errorTailLimit: errorTailLimit)
        var drainDeadline: ContinuousClock.Instant?
        while collector.isOpen {
            var timeout = exitCheckInterval
            if let drainDeadline {
                timeout = Int32((drainDeadline - .now) / .milliseconds(1))
                if timeout <= 0 {
                    break
                }
            }
            collector.readAvailable(timeout: timeout)
            if drainDeadline == nil, leaderExited(child.pid, waiting: false) {
                signalGroup(of: child, SIGKILL)
                drainDeadline = .now + drainTimeout
            }
        }
        if drainDeadline == nil {
            leaderExited(child.pid, waiting: true)
            signalGroup(of: child, SIGKILL)
        }
        registry.withLock { $0.leaders[child.spawnNumber] = nil }
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 {
            precondition(errno == EINTR, "waitpid(\(child.pid)): \(errorText(errno))")
        }
        return collector.finish(status: ExitStatus(waitStatus: status))
    }

    /// Whether the leader has exited, leaving it unreaped so its group id stays reserved.
    ///
    /// - Parameter waiting: Whether to wait for the exit (then the answer is always true).
    @discardableResult
    private static func leaderExited(_ pid: pid_t, waiting: Bool) -> Bool {
        var info = siginfo_t()
        let options = WEXITED | WNOWAIT | (waiting ? 0 : WNOHANG)
        while waitid(P_PID, id_t(pid), &info, options) != 0 {
            precondition(errno == EINTR, "waitid(\(pid)): \(errorText(errno))")
        }
        // With WNOHANG and no exit to report, `info` stays zeroed.
        return info.si_signo == SIGCHLD
    }

    /// The system's text for the error number `code`.
    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

}
