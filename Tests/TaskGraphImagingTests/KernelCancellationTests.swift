import Foundation
import Synchronization
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// Kernels stop between bands of rows when their task is cancelled.
    @Suite struct KernelCancellationTests {
        /// Counts bands run by concurrent workers.
        private final class Counter: Sendable {
            private let count = Atomic(0)
            var value: Int { count.load(ordering: .acquiring) }
            func increment() { count.add(1, ordering: .releasing) }
        }

        @Test func bandsStopSoonAfterCancellation() async throws {
            let ran = Counter()
            let work = Task {
                try await ParallelBands.run(count: 1000, bandSize: 1) { _ in
                    ran.increment()
                    usleep(10_000)
                }
            }
            try await Task.sleep(for: .milliseconds(50))
            work.cancel()
            let result = await work.result
            #expect(throws: CancellationError.self) { try result.get() }
            // Two workers at 10 ms a band: about ten bands ran, far from all 1000.
            #expect(ran.value < 200)
        }

        @Test func aCancelledTaskBlursNothing() async throws {
            let image = Image(width: 300, height: 200, channels: 3, pixels: [UInt8](repeating: 90, count: 180_000))
            let blur = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await GaussianBlur.apply(to: image, sigma: 30)
            }
            let result = await blur.result
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }
}
