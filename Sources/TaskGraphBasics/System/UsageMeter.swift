import CSystemShims
import Foundation

/// Adds up what one node uses while it runs, over all its attempts: the engine makes one per node
/// and makes it `current` (a task-local) while the node's action runs. The child processes it
/// starts add their `wait4` figures when reaped; the work it hands to blocking threads
/// (`BlockingThreadPool.run`, `BlockingIO.run`, the bands of `ParallelBands`: kernels, codecs,
/// file IO) adds the CPU time of the thread that ran it, from its CPU clock
/// (`CLOCK_THREAD_CPUTIME_ID`) before and after, before the waiting task resumes. Time the action's own async code
/// spends on
/// the cooperative pool is not counted: tasks hop threads there, so no per-thread clock can tell
/// it apart from other nodes' (it is short glue for the built-in operations).
package final class UsageMeter: Sendable {
    /// The meter of the node whose action the current task runs, if any.
    @TaskLocal package static var current: UsageMeter?

    private let total = Locked<ResourceUsage?>(nil)

    /// A meter that has measured nothing yet.
    package init() {}

    /// What was measured, nil if nothing was.
    package var usage: ResourceUsage? { total.withLock { $0 } }

    /// Adds `usage`: CPU times and IO add up, peak memory is the larger.
    func add(_ usage: ResourceUsage) {
        total.withLock { total in
            guard let sum = total else {
                total = usage
                return
            }
            total = ResourceUsage(
                userCPU: sum.userCPU + usage.userCPU, systemCPU: sum.systemCPU + usage.systemCPU,
                maxResidentBytes: Self.combine(sum.maxResidentBytes, usage.maxResidentBytes, max),
                bytesRead: Self.combine(sum.bytesRead, usage.bytesRead, +),
                bytesWritten: Self.combine(sum.bytesWritten, usage.bytesWritten, +))
        }
    }

    /// Runs `body` and adds the CPU time the calling thread spent in it to `meter` (when there
    /// is one) before returning, so a task waiting for the result finds it counted.
    ///
    /// The time is the thread's CPU clock's. `getrusage(RUSAGE_THREAD)` alone lags by up to a
    /// scheduler tick (4 ms at 250 Hz): a band of a kernel takes less, and 300 stretches of
    /// 0.5 ms measured 0.013 s of 0.149 s. Its user and system times are kept only to split
    /// the clock's time between the two.
    static func measure<T>(_ body: () throws -> T, into meter: UsageMeter?) rethrows -> T {
        guard let meter else { return try body() }
        let before = threadTimes()
        defer {
            let after = threadTimes()
            let total = max(after.clock - before.clock, 0)
            let user = max(after.user - before.user, 0)
            let system = max(after.system - before.system, 0)
            let systemShare = user + system > 0 ? system / (user + system) : 0
            meter.add(ResourceUsage(userCPU: total * (1 - systemShare), systemCPU: total * systemShare))
        }
        return try body()
    }

    /// The calling thread's CPU clock and its user and system CPU seconds by `getrusage`.
    private static func threadTimes() -> (clock: Double, user: Double, system: Double) {
        var now = timespec()
        let clock =
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 ? Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 : 0
        var usage = rusage()
        guard tg_thread_rusage(&usage) == 0 else { return (clock, 0, 0) }
        return (clock, seconds(usage.ru_utime), seconds(usage.ru_stime))
    }

    /// A `timeval` in seconds.
    static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }

    private static func combine(_ first: Int?, _ second: Int?, _ operation: (Int, Int) -> Int) -> Int? {
        guard let first else { return second }
        return second.map { operation(first, $0) } ?? first
    }
}
