import Foundation
import Testing

@testable import TaskGraphBasics

/// Tests for `Locked`.
struct LockedTests {
    /// Threads that hold the lock one after another, with enough contention that `Mutex` takes
    /// its kernel path on Linux. Every update is kept; under ThreadSanitizer
    /// (`scripts/sanitize.sh thread`) no data race may be reported, which `Mutex` alone
    /// produced here.
    @Test func contendedUpdatesAreExclusiveAndSeenByTheNextHolder() async {
        final class Shared: Sendable {
            let counts = Locked((total: 0, perThread: [Int](repeating: 0, count: 4)))
        }
        let shared = Shared()
        let iterations = 2_000
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        Thread.detachNewThread {
                            for step in 0..<iterations {
                                shared.counts.withLock { counts in
                                    counts.total += 1
                                    counts.perThread[thread] += 1
                                    // Hold the lock now and then so the others must wait for it.
                                    if step % 100 == 0 { usleep(200) }
                                }
                            }
                            done.resume()
                        }
                    }
                }
            }
        }
        let counts = shared.counts.withLock { $0 }
        #expect(counts.total == 4 * iterations)
        #expect(counts.perThread == [Int](repeating: iterations, count: 4))
    }

    @Test func returnsWhatTheBodyReturnsAndRethrows() {
        struct Boom: Error {}
        let value = Locked(1)
        #expect(
            value.withLock { value in
                value += 1
                return value * 10
            } == 20)
        #expect(throws: Boom.self) { try value.withLock { _ throws(Boom) in throw Boom() } }
        #expect(value.withLock { $0 } == 2)
    }
}
