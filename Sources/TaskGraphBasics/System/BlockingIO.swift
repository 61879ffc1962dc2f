/// Runs blocking work (file IO, blocking C calls) off the cooperative pool, for library code
/// below an action, which has no `TaskContext` to reach its run's `RunResources` through.
///
/// Inside a run (a task the engine started for it) the work goes to the run's own
/// `BlockingThreadPool`, found through the task-local `BlockingThreadPool.current` (which a caller
/// may also set for the work around a run); outside any (a program decoding an image directly, a
/// test) it gets a thread started for that one call, which exits when the work is done. Either way
/// no thread outlives what it was started for.
public enum BlockingIO {
    /// Runs `body` on a thread of the current run's pool, or on a thread of its own outside a run,
    /// and returns its result.
    ///
    /// - Parameter body: The blocking work.
    /// - Throws: `CancellationError`, without running `body`, if the task is already cancelled
    ///   when the work would start; otherwise whatever `body` throws.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        if let pool = BlockingThreadPool.current {
            return try await pool.run(body)
        }
        return try await BlockingThreadPool.run(body, submit: BlockingThreadPool.startThread)
    }

    /// Where work of the current task goes: `submit` of the run's pool, or a new thread for each
    /// item outside a run. Read it in async code: the task-local is not visible on other threads.
    package static var currentSubmit: @Sendable (@escaping @Sendable () -> Void) -> Void {
        if let pool = BlockingThreadPool.current {
            return { pool.submit($0) }
        }
        return { BlockingThreadPool.startThread($0) }
    }
}
