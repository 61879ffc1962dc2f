import Dispatch
import Foundation
import Synchronization

/// Runs blocking work (file IO, blocking C calls, waitpid) on dedicated threads, never on the
/// cooperative pool.
///
/// Threads are started lazily, one whenever work arrives and none is idle, up to
/// `maximumThreads`; they are kept for reuse. Beyond the cap, work waits in a FIFO queue until a
/// thread becomes free, so work items must not wait on each other.
public enum BlockingIO {
    /// The most threads the pool ever starts.
    static let maximumThreads = 64

    /// Runs `body` on a dedicated thread and returns its result.
    ///
    /// - Parameter body: The blocking work.
    /// - Throws: `CancellationError`, without running `body`, if the task is already cancelled
    ///   when the work would start; otherwise whatever `body` throws.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await CancellationFlag.run { cancelled in
            try await withCheckedThrowingContinuation { continuation in
                submit {
                    if cancelled.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(with: Result(catching: body))
                    }
                }
            }
        }
    }

    /// Runs `body` on a dedicated thread even if the task is cancelled; for cleanup that must
    /// happen, such as reaping a child process.
    ///
    /// - Parameter body: The blocking work.
    static func runIgnoringCancellation<T: Sendable>(
        _ body: @escaping @Sendable () -> T
    ) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: body()) }
        }
    }

    /// The queue and thread accounting shared by all workers.
    private struct PoolState {
        /// Work not yet taken by a thread, oldest first.
        var queue: [@Sendable () -> Void] = []
        /// Threads waiting for work that no `submit` has counted on yet.
        var idleThreads = 0
        /// Threads started so far; they never exit.
        var startedThreads = 0
    }

    /// Guards the queue; `available` is signalled once per queued item.
    private static let state = Locked(PoolState())

    /// Counts queued items, acting as the condition variable workers sleep on.
    private static let available = DispatchSemaphore(value: 0)

    /// Queues `work`, starting a new thread if none is idle and the cap allows it.
    private static func submit(_ work: @escaping @Sendable () -> Void) {
        let startThread = state.withLock { state in
            state.queue.append(work)
            if state.idleThreads > 0 {
                state.idleThreads -= 1
                return false
            }
            guard state.startedThreads < maximumThreads else { return false }
            state.startedThreads += 1
            return true
        }
        available.signal()
        if startThread {
            Thread.detachNewThread { workLoop() }
        }
    }

    /// The body of every worker thread: take the oldest item, run it, repeat.
    private static func workLoop() -> Never {
        while true {
            available.wait()
            let work = state.withLock { $0.queue.removeFirst() }
            work()
            state.withLock { $0.idleThreads += 1 }
        }
    }
}
