import Foundation
import Testing

@testable import TaskGraphBasics

@Suite struct UsageMeterTests {
    @Test func sumsTimesAndIOAndKeepsThePeakMemory() {
        let meter = UsageMeter()
        #expect(meter.usage == nil)
        meter.add(ResourceUsage(userCPU: 1, systemCPU: 0.5, maxResidentBytes: 100, bytesRead: 10, bytesWritten: 20))
        meter.add(ResourceUsage(userCPU: 2, systemCPU: 0.25))
        meter.add(ResourceUsage(userCPU: 0, systemCPU: 0, maxResidentBytes: 50, bytesRead: 5))
        #expect(
            meter.usage
                == ResourceUsage(userCPU: 3, systemCPU: 0.75, maxResidentBytes: 100, bytesRead: 15, bytesWritten: 20))
    }

    @Test func countsTheCPUTimeOfWorkOnTheBlockingThreads() async throws {
        let pool = BlockingThreadPool(maximumThreads: 2)
        let meter = UsageMeter()
        // Spins until its thread has used 30 ms of CPU (by that thread's own clock).
        try await UsageMeter.$current.withValue(meter) {
            try await pool.run {
                func threadNanoseconds() -> Int {
                    var now = timespec()
                    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
                    return now.tv_sec * 1_000_000_000 + now.tv_nsec
                }
                let start = threadNanoseconds()
                while threadNanoseconds() - start < 30_000_000 {}
            }
        }
        let usage = try #require(meter.usage)
        #expect(usage.cpuTime >= 0.025)
        #expect(usage.maxResidentBytes == nil)
        // Outside a node nothing is measured.
        try await pool.run {}
        #expect(meter.usage == usage)
        await pool.shutDown()
    }

    /// Stretches shorter than a scheduler tick, like the bands of a kernel, count in full:
    /// `getrusage(RUSAGE_THREAD)` alone saw about a tenth of 300 stretches of 0.5 ms.
    @Test func countsStretchesShorterThanATickInFull() {
        func threadNanoseconds() -> Int {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return now.tv_sec * 1_000_000_000 + now.tv_nsec
        }
        let meter = UsageMeter()
        var spun = 0
        for _ in 0..<300 {
            UsageMeter.measure(
                {
                    let start = threadNanoseconds()
                    while threadNanoseconds() - start < 500_000 {}
                    spun += threadNanoseconds() - start
                }, into: meter)
        }
        let usage = meter.usage
        #expect((usage?.cpuTime ?? 0) >= Double(spun) / 1e9)
        #expect((usage?.systemCPU ?? -1) >= 0)
    }
}
