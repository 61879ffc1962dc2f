import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// `UploadQueue`: at most `limit` uploads at once, every one run before `drain` returns, and
/// its workers gone once they have nothing left to do.
@Suite struct UploadQueueTests {
    @Test func everyUploadRunsAtMostLimitAtOnceAndNoWorkerOutlivesTheQueuesWork() async {
        let queue = UploadQueue(limit: 3)
        let counts = Locked((running: 0, most: 0, done: 0))
        for _ in 0..<40 {
            queue.enqueue {
                counts.withLock { counts in
                    counts.running += 1
                    counts.most = max(counts.most, counts.running)
                }
                await Task.yield()
                counts.withLock { counts in
                    counts.running -= 1
                    counts.done += 1
                }
            }
        }
        #expect(await queue.drain(timeout: .seconds(600)))
        let (most, done) = counts.withLock { ($0.most, $0.done) }
        #expect(done == 40)
        #expect((1...3).contains(most))
        #expect(queue.progress == (40, 40))
        #expect(queue.workerCount == 0)
    }
}
