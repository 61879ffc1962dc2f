import Foundation
import Synchronization
import Testing

@testable import TaskGraphBasics

/// Tests for `BlockingThreadPool` and `BlockingIO`, with real threads.
struct BlockingThreadPoolTests {
    /// An error thrown by test bodies to check propagation.
    private struct Boom: Error, Equatable {}

    /// A counter shared by concurrent work items.
    private final class Counter: Sendable {
        /// The count so far.
        private let count = Atomic(0)

        /// The current count.
        var value: Int { count.load(ordering: .acquiring) }

        /// Adds one.
        func increment() { count.add(1, ordering: .releasing) }
    }

    @Test func runsOffTheCallingThreadAndReturnsTheResult() async throws {
        let pool = BlockingThreadPool(maximumThreads: 2)
        let caller = pthread_self()
        let (value, worker) = try await pool.run { (42, pthread_self()) }
        #expect(value == 42)
        #expect(pthread_equal(caller, worker) == 0)
        await pool.shutDown()
    }

    @Test func runsAsManyBlockingCallsAtOnceAsItHasThreads() async throws {
        // Each call blocks until all have started, which the cooperative pool (one thread per
        // core) could not do for more calls than there are cores.
        let count = ProcessInfo.processInfo.activeProcessorCount + 4
        let pool = BlockingThreadPool(maximumThreads: count)
        let started = Counter()
        let allStarted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await pool.run {
                        started.increment()
                        let deadline = ContinuousClock.now + .seconds(5)
                        while started.value < count, ContinuousClock.now < deadline {
                            _ = usleep(1_000)
                        }
                        return started.value == count
                    }
                }
            }
            return try await group.allSatisfy { $0 }
        }
        #expect(allStarted)
        #expect(pool.threadCount == count)
        await pool.shutDown()
    }

    @Test func propagatesErrors() async {
        let pool = BlockingThreadPool(maximumThreads: 1)
        await #expect(throws: Boom()) {
            try await pool.run { throw Boom() }
        }
        await pool.shutDown()
    }

    @Test func doesNotStartWorkForACancelledTask() async {
        let pool = BlockingThreadPool(maximumThreads: 1)
        let ran = Locked(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await pool.run { ran.withLock { $0 = true } }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.withLock { $0 })
        await pool.shutDown()
    }

    @Test func runsIgnoringCancellationEvenWhenCancelled() async {
        let pool = BlockingThreadPool(maximumThreads: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await pool.runIgnoringCancellation { 7 }
        }
        #expect(await task.value == 7)
        await pool.shutDown()
    }

    @Test func queuesWorkBeyondTheThreadCapAndStartsNoMoreThreads() async throws {
        let pool = BlockingThreadPool(maximumThreads: 3)
        #expect(pool.threadCount == 0) // started lazily
        let count = 30
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await pool.run {
                        _ = usleep(2_000)
                        return index
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(sum == count * (count - 1) / 2)
        #expect((1...3).contains(pool.threadCount))
        await pool.shutDown()
    }

    @Test func threadsExitWhenThePoolIsShutDown() async throws {
        let pool = BlockingThreadPool(maximumThreads: 4)
        let threads = try await withThrowingTaskGroup(of: pid_t.self) { group in
            let started = Counter()
            for _ in 0..<4 {
                group.addTask {
                    try await pool.run {
                        // Hold every thread until all four run, so four distinct threads exist.
                        started.increment()
                        while started.value < 4 { _ = usleep(1_000) }
                        return Self.currentThread()
                    }
                }
            }
            return try await group.reduce(into: Set<pid_t>()) { $0.insert($1) }
        }
        #expect(threads.count == 4)
        #expect(threads.allSatisfy { Self.threadExists($0) })
        await pool.shutDown()
        #expect(pool.threadCount == 0)
        for thread in threads {
            #expect(await Self.threadEnds(thread))
        }
        // Work after the shutdown still runs, on a thread of its own.
        #expect(try await pool.run { 5 } == 5)
        #expect(pool.threadCount == 0)
    }

    @Test func startedThreadsTakeTheWorkThatArrivesAndStartNoMore() async throws {
        let pool = BlockingThreadPool(maximumThreads: 2)
        pool.startThreads()
        #expect(pool.threadCount == 2)
        // Both threads busy at once (each waits for the other), then more work: none is started.
        let started = Counter()
        let busy = try await withThrowingTaskGroup(of: pid_t.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    try await pool.run {
                        started.increment()
                        let deadline = ContinuousClock.now + .seconds(5)
                        while started.value < 2, ContinuousClock.now < deadline { _ = usleep(1_000) }
                        return Self.currentThread()
                    }
                }
            }
            return try await group.reduce(into: Set<pid_t>()) { $0.insert($1) }
        }
        var threads = busy
        for _ in 0..<4 { threads.insert(try await pool.run { Self.currentThread() }) }
        #expect(busy.count == 2 && threads == busy)
        pool.startThreads()
        #expect(pool.threadCount == 2)
        await pool.shutDown()
        #expect(pool.threadCount == 0)
        for thread in threads { #expect(await Self.threadEnds(thread)) }
        // A pool shut down starts none.
        pool.startThreads()
        #expect(pool.threadCount == 0)
    }

    @Test func blockingIOUsesTheCurrentRunsPool() async throws {
        let pool = BlockingThreadPool(maximumThreads: 1)
        let value = try await BlockingThreadPool.$current.withValue(pool) {
            try await BlockingIO.run { 9 }
        }
        #expect(value == 9)
        #expect(pool.threadCount == 1)
        await pool.shutDown()
        #expect(pool.threadCount == 0)
    }

    @Test func blockingIOOutsideARunUsesAThreadThatEnds() async throws {
        let caller = Self.currentThread()
        let thread = try await BlockingIO.run { Self.currentThread() }
        #expect(thread != caller)
        #expect(await Self.threadEnds(thread))
    }

    /// The kernel's id of the calling thread, from the `/proc/thread-self` link (`PID/task/TID`).
    private static func currentThread() -> pid_t {
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        return pid_t(link?.split(separator: "/").last ?? "") ?? -1
    }

    /// Whether this process has a thread with the id `thread`.
    private static func threadExists(_ thread: pid_t) -> Bool {
        FileManager.default.fileExists(atPath: "/proc/self/task/\(thread)")
    }

    /// Whether the thread `thread` is gone within 10 s (the kernel removes an exited thread
    /// just after the thread's last instruction).
    private static func threadEnds(_ thread: pid_t) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while threadExists(thread), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return !threadExists(thread)
    }
}
