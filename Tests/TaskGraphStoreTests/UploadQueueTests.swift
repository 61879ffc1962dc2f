import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// `UploadQueue`: at most `limit` uploads at once and, when more wait, exactly `limit`; every
/// one run before `drain` returns, and its workers gone once they have nothing left to do.
@Suite struct UploadQueueTests {
    /// How many uploads run, the most that ran at once, and how many ended.
    private final class Counts: Sendable {
        let state = Locked((running: 0, most: 0, done: 0))
    }

    /// An upload that counts itself in `counts` while it runs `body`.
    private static func counted(in counts: Counts, _ body: @escaping @Sendable () async -> Void) -> UploadQueue.Work {
        {
            counts.state.withLock { counts in
                counts.running += 1
                counts.most = max(counts.most, counts.running)
            }
            await body()
            counts.state.withLock { counts in
                counts.running -= 1
                counts.done += 1
            }
        }
    }

    @Test func everyUploadRunsAtMostLimitAtOnceAndNoWorkerOutlivesTheQueuesWork() async {
        let queue = UploadQueue(limit: 3)
        let counts = Counts()
        for _ in 0..<40 { queue.enqueue(Self.counted(in: counts) { await Task.yield() }) }
        #expect(await queue.drain(timeout: .seconds(600)))
        let (most, done) = counts.state.withLock { ($0.most, $0.done) }
        #expect(done == 40)
        #expect((1...3).contains(most))
        #expect(queue.progress == (40, 40))
        #expect(queue.workerCount == 0)
    }

    /// Each upload waits until `limit` run at once: were fewer workers started than the limit
    /// allows, the first would never end and `drain` would not return.
    @Test func withMoreUploadsWaitingThanTheLimitExactlyLimitRunAtOnce() async {
        let limit = 3
        let queue = UploadQueue(limit: limit)
        let counts = Counts()
        for _ in 0..<12 {
            queue.enqueue(
                Self.counted(in: counts) {
                    while counts.state.withLock({ $0.most < limit }) { try? await Task.sleep(for: .milliseconds(1)) }
                })
        }
        #expect(await queue.drain(timeout: .seconds(120)))
        let (most, done) = counts.state.withLock { ($0.most, $0.done) }
        #expect(most == limit)
        #expect(done == 12)
        #expect(queue.workerCount == 0)
    }
}
