import CSystemShims
import Dispatch
import Foundation

/// Dedicated threads for blocking work (file IO, blocking C calls, CPU-bound kernels), never the
/// cooperative pool. Each run owns one (`RunResources.blockingIO`).
///
/// Threads are started lazily, one whenever work arrives and none is idle, up to
/// `maximumThreads`, and kept for reuse until `shutDown()` (or until the pool is released), when
/// they finish the work queued and exit. Beyond the cap, work waits in a FIFO queue until a thread
/// becomes free, so work items must not wait on each other.
public final class BlockingThreadPool: Sendable {
    /// The most threads the pool runs at once.
    public let maximumThreads: Int
    /// The queue and the threads' bookkeeping, shared with the threads (which outlive no one:
    /// they exit once `shutDown` or `deinit` has told them to and the queue is empty).
    private let core: PoolCore

    /// The pool of the run the current task belongs to (`RunResources.blockingIO`, set with
    /// `RunResources.current`), or one its caller set for the work around the run, where
    /// `BlockingIO` sends work; nil otherwise.
    @TaskLocal package static var current: BlockingThreadPool?

    /// A pool of at most `maximumThreads` threads (at least one); none is started yet.
    public init(maximumThreads: Int) {
        self.maximumThreads = max(1, maximumThreads)
        core = PoolCore()
    }

    /// Tells the threads to exit once the queue is empty, without waiting for them.
    deinit {
        core.beginShutDown()
    }

    /// Runs `body` on one of the pool's threads and returns its result.
    ///
    /// - Parameter body: The blocking work.
    /// - Throws: `CancellationError`, without running `body`, if the task is already cancelled
    ///   when the work would start; otherwise whatever `body` throws.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        // Code already on a pool's thread (a task preferring the pool as its executor) blocks in place.
        if Self.isCurrentThreadBlocking {
            try Task.checkCancellation()
            return try body()
        }
        return try await Self.run(body) { self.submit($0) }
    }

    /// Runs `body` on one of the pool's threads even if the task is cancelled; for cleanup that
    /// must happen.
    package func runIgnoringCancellation<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        let meter = UsageMeter.current
        return await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: UsageMeter.measure(body, into: meter)) }
        }
    }

    /// Queues `work`, starting a new thread if none is idle and the cap allows it. After
    /// `shutDown`, `work` gets a thread started for it alone.
    package func submit(_ work: @escaping @Sendable () -> Void) {
        switch core.enqueue(work, maximumThreads: maximumThreads) {
        case .queued: break
        case .startThread: Self.startThread { [core] in core.workLoop() }
        case .refused: Self.startThread(work)
        }
    }

    /// Starts every thread the pool may have now, idle, instead of when work arrives: for a
    /// caller whose blocking work must not wait for a thread to start, as any new thread waits
    /// while the process loads a library (`pthread_create` takes the dynamic loader's lock,
    /// which `dlopen` holds).
    package func startThreads() {
        for _ in 0..<core.addIdleThreads(upTo: maximumThreads) { Self.startThread { [core] in core.workLoop() } }
    }

    /// Lets the threads finish the work queued, then waits until every one of them has exited.
    /// Later work runs on a thread started for it alone.
    public func shutDown() async {
        await withCheckedContinuation { continuation in
            core.beginShutDown(whenDone: continuation)
        }
    }

    /// Threads that have started and not exited yet.
    package var threadCount: Int { core.threadCount }

    /// Starts a thread of its own for `work`; it exits when `work` returns.
    @usableFromInline package static func startThread(_ work: @escaping @Sendable () -> Void) {
        Thread.detachNewThread(work)
    }

    /// Runs `body` through `submit` (which must eventually call what it is given on a thread
    /// where blocking is allowed), unless the task is cancelled by the time it starts. Its CPU
    /// time goes to the current node's `UsageMeter`, before the caller resumes.
    package static func run<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T,
        submit: (@escaping @Sendable () -> Void) -> Void
    ) async throws -> T {
        let meter = UsageMeter.current
        return try await CancellationFlag.run { cancelled in
            try await withCheckedThrowingContinuation { continuation in
                submit {
                    if cancelled.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(with: Result { try UsageMeter.measure(body, into: meter) })
                    }
                }
            }
        }
    }
}

/// The pool as a task executor: code of a task that prefers it (`withTaskExecutorPreference`)
/// runs on the pool's threads, where blocking is allowed, and the blocking work that code asks
/// for through `run` is done in place, on the same thread, instead of a trip to another thread
/// and back (two wake-ups each). For a stretch of code that is mostly short blocking calls, such
/// as a cache lookup (`NodeRunner.runCached`); not for code that waits long on anything but
/// blocking calls, which would hold a thread meanwhile.
extension BlockingThreadPool: TaskExecutor {
    /// Runs `job` on one of the pool's threads.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        submit { job.runSynchronously(on: executor) }
    }

    /// Whether the calling thread is one of a pool's threads (of any run): there, `run` does
    /// its work in place.
    static var isCurrentThreadBlocking: Bool { tg_is_blocking_thread() != 0 }
}

/// The queue of a `BlockingThreadPool` and its threads' accounting, under one lock.
private final class PoolCore: Sendable {
    /// What `enqueue` asks the caller to do.
    enum Admission {
        /// An idle thread will take the work, or it waits for one.
        case queued
        /// The work is queued and a new thread must be started.
        case startThread
        /// The pool is shut down: the work was not queued.
        case refused
    }

    private struct State {
        /// Work not yet taken by a thread, oldest first.
        var queue: [@Sendable () -> Void] = []
        /// Threads waiting for work that no `enqueue` has counted on yet.
        var idleThreads = 0
        /// Threads started and not exited.
        var liveThreads = 0
        /// Set by `beginShutDown`: threads exit once the queue is empty.
        var isShutDown = false
        /// Waiting for the last thread to exit.
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Counts queued items and shutdown wake-ups, acting as the condition variable threads
    /// sleep on.
    private let available = DispatchSemaphore(value: 0)

    func enqueue(_ work: @escaping @Sendable () -> Void, maximumThreads: Int) -> Admission {
        let admission = state.withLock { state -> Admission in
            guard !state.isShutDown else { return .refused }
            state.queue.append(work)
            if state.idleThreads > 0 {
                state.idleThreads -= 1
                return .queued
            }
            guard state.liveThreads < maximumThreads else { return .queued }
            state.liveThreads += 1
            return .startThread
        }
        if admission != .refused { available.signal() }
        return admission
    }

    var threadCount: Int { state.withLock { $0.liveThreads } }

    /// Counts threads as started and idle until there are `maximumThreads` (none after
    /// `beginShutDown`); returns how many the caller must start.
    func addIdleThreads(upTo maximumThreads: Int) -> Int {
        state.withLock { state in
            guard !state.isShutDown else { return 0 }
            let added = max(0, maximumThreads - state.liveThreads)
            state.liveThreads += added
            state.idleThreads += added
            return added
        }
    }

    /// Marks the pool shut down and wakes every thread; `whenDone` is resumed once the last
    /// thread has exited (at once if none runs).
    func beginShutDown(whenDone: CheckedContinuation<Void, Never>? = nil) {
        let (wakeUps, finished) = state.withLock { state -> (Int, Bool) in
            let wakeUps = state.isShutDown ? 0 : state.liveThreads
            state.isShutDown = true
            guard let whenDone else { return (wakeUps, false) }
            if state.liveThreads == 0 { return (wakeUps, true) }
            state.exitWaiters.append(whenDone)
            return (wakeUps, false)
        }
        for _ in 0..<wakeUps { available.signal() }
        if finished { whenDone?.resume() }
    }

    /// The body of every thread: take the oldest item, run it, repeat; return once the pool is
    /// shut down and the queue is empty.
    func workLoop() {
        tg_mark_blocking_thread()
        while true {
            available.wait()
            let next = state.withLock { state -> (@Sendable () -> Void)? in
                state.queue.isEmpty ? nil : state.queue.removeFirst()
            }
            guard let work = next else { break }
            work()
            state.withLock { $0.idleThreads += 1 }
        }
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.liveThreads -= 1
            state.idleThreads = max(0, state.idleThreads - 1)
            guard state.liveThreads == 0 else { return [] }
            defer { state.exitWaiters = [] }
            return state.exitWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
