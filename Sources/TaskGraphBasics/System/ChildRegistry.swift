import Foundation

/// The process groups of one run's children that may still be signalled: a group is only
/// signalled while its leader is registered, and a leader is unregistered just before it is
/// reaped, so its pid (the group id) cannot have been reused by then.
final class ChildRegistry: Sendable {
    private struct State {
        /// The pid of each child still registered, by its spawn number (never reused, unlike pids).
        var leaders: [UInt64: pid_t] = [:]
        /// The number of children spawned so far.
        var spawnCount: UInt64 = 0
        /// Set by `killAll`: no child starts afterwards.
        var closed = false
        /// Whether every group is stopped (`setStopped`); a child spawned meanwhile is stopped
        /// at once.
        var stopped = false
    }

    private let state = Locked(State())

    /// Calls `spawn` (which starts a child and returns its pid) and registers the child, under the
    /// lock, so `killAll` cannot miss a child that was just started.
    ///
    /// - Returns: The child's spawn number and pid.
    /// - Throws: `ChildProcessError.spawnFailed` naming `program` after `killAll`; whatever
    ///   `spawn` throws.
    func register(
        _ program: String, spawn: () throws -> pid_t
    ) throws -> (spawnNumber: UInt64, pid: pid_t) {
        try state.withLock { state in
            guard !state.closed else {
                throw ChildProcessError.spawnFailed(program, "taskgraph is exiting")
            }
            let pid = try spawn()
            if state.stopped { kill(-pid, SIGSTOP) }
            state.spawnCount += 1
            state.leaders[state.spawnCount] = pid
            return (state.spawnCount, pid)
        }
    }

    /// Whether the child with `spawnNumber` is still registered (not reaped).
    func isRegistered(_ spawnNumber: UInt64) -> Bool {
        state.withLock { $0.leaders[spawnNumber] != nil }
    }

    /// Sends `signal` to the process group of the child with `spawnNumber` unless it was reaped.
    ///
    /// - Returns: Whether the child was still registered.
    @discardableResult
    func signalGroup(of spawnNumber: UInt64, _ signal: Int32) -> Bool {
        state.withLock { state in
            guard let leader = state.leaders[spawnNumber] else { return false }
            kill(-leader, signal)
            return true
        }
    }

    /// Stops (SIGSTOP) or continues (SIGCONT) every registered group, and every group started
    /// while stopped.
    func setStopped(_ stopped: Bool) {
        state.withLock { state in
            guard state.stopped != stopped else { return }
            state.stopped = stopped
            for leader in state.leaders.values {
                kill(-leader, stopped ? SIGSTOP : SIGCONT)
            }
        }
    }

    /// Sends SIGCONT to the group of the child with `spawnNumber` if groups are stopped, so
    /// that a signal sent to it before is handled now.
    func continueIfStopped(_ spawnNumber: UInt64) {
        state.withLock { state in
            guard state.stopped, let leader = state.leaders[spawnNumber] else { return }
            kill(-leader, SIGCONT)
        }
    }

    /// Forgets the child with `spawnNumber`; call just before reaping it.
    func unregister(_ spawnNumber: UInt64) {
        state.withLock { _ = $0.leaders.removeValue(forKey: spawnNumber) }
    }

    /// Sends SIGKILL to every registered group and refuses every later spawn.
    func killAll() {
        state.withLock { state in
            state.closed = true
            for leader in state.leaders.values {
                kill(-leader, SIGKILL)
            }
        }
    }
}
