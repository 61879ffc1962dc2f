import CSystemShims
import Foundation

/// Adds up what one node uses while it runs, over all its attempts: the engine makes one per node
/// and makes it `current` (a task-local) while the node's action runs. The child processes it
/// starts add their `wait4` figures when reaped; the work it hands to blocking threads
/// (`BlockingThreadPool.run`, `BlockingIO.run`, the bands of `ParallelBands`: kernels, codecs,
/// file IO) adds the CPU time of the thread that ran it, from `getrusage(RUSAGE_THREAD)` before
/// and after, before the waiting task resumes. Time the action's own async code spends on
/// the cooperative pool is not counted: tasks hop threads there, so no per-thread clock can tell
/// it apart from other nodes' (it is short glue for the built-in operations).
final class UsageMeter: Sendable {
    /// The meter of the node whose action the current task runs, if any.
    @TaskLocal static var current: UsageMeter?

    private let total = Locked<ResourceUsage?>(nil)

    /// What was measured, nil if nothing was.
    var usage: ResourceUsage? { total.withLock { $0 } }

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
    static func measure<T>(_ body: () throws -> T, into meter: UsageMeter?) rethrows -> T {
        guard let meter else { return try body() }
        let before = threadTimes()
        defer {
            let after = threadTimes()
            meter.add(ResourceUsage(userCPU: max(after.user - before.user, 0), systemCPU: max(after.system - before.system, 0)))
        }
        return try body()
    }

    /// The user and system CPU seconds of the calling thread.
    private static func threadTimes() -> (user: Double, system: Double) {
        var usage = rusage()
        guard tg_thread_rusage(&usage) == 0 else { return (0, 0) }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
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
