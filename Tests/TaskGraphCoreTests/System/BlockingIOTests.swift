import Foundation
import Synchronization
import Testing

@testable import TaskGraphCore

/// Tests for `BlockingIO`.
struct BlockingIOTests {
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
        let caller = pthread_self()
        let (value, worker) = try await BlockingIO.run { (42, pthread_self()) }
        #expect(value == 42)
        #expect(pthread_equal(caller, worker) == 0)
    }

    @Test func runsMoreBlockingCallsAtOnceThanTheCooperativePoolHasThreads() async throws {
        // Each call blocks until all have started, which the cooperative pool (one thread per
        // core) could not do for more calls than there are cores.
        let count = ProcessInfo.processInfo.activeProcessorCount + 4
        let started = Counter()
        let allStarted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await BlockingIO.run {
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
    }

    @Test func propagatesErrors() async {
        await #expect(throws: Boom()) {
            try await BlockingIO.run { throw Boom() }
        }
    }

    @Test func doesNotStartWorkForACancelledTask() async {
        let ran = Locked(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await BlockingIO.run { ran.withLock { $0 = true } }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.withLock { $0 })
    }

    @Test func runsIgnoringCancellationEvenWhenCancelled() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await BlockingIO.runIgnoringCancellation { 7 }
        }
        #expect(await task.value == 7)
    }

    @Test func runsManyBlockingCallsConcurrently() async throws {
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<32 {
                group.addTask { try await BlockingIO.run { _ = usleep(1_000_000) } }
            }
            try await group.waitForAll()
        }
        // One after another they would take 32 s.
        #expect(ContinuousClock.now - start < .seconds(25))
    }

    @Test func queuesWorkBeyondTheThreadCap() async throws {
        let count = BlockingIO.maximumThreads * 3
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await BlockingIO.run {
                        _ = usleep(5_000)
                        return index
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(sum == count * (count - 1) / 2)
    }
}
