import Foundation
import Synchronization
import Testing

@testable import TaskGraphBasics
@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// Decodes and kernels wait for working memory, in order, and only while others hold it.
    @Suite struct WorkingMemoryBudgetTests {
        /// What ran, in order.
        private final class Log: Sendable {
            private let entries = Locked<[String]>([])
            func add(_ entry: String) { entries.withLock { $0.append(entry) } }
            var all: [String] { entries.withLock { $0 } }
        }

        /// Polls `condition` until it holds (or fails the test after 5 s).
        private func waitUntil(_ condition: () -> Bool) async throws {
            for _ in 0..<5000 where !condition() { try await Task.sleep(for: .milliseconds(1)) }
            #expect(condition())
        }

        /// A budget of 100 bytes of which a first reservation ("holder") holds some until
        /// `release()`.
        private struct HeldBudget {
            let budget = WorkingMemoryBudget(limit: 100)
            let log = Log()
            let holder: Task<Void, any Error>
            private let releaser: AsyncStream<Void>.Continuation

            init(holding bytes: Int) {
                let (release, releaser) = AsyncStream.makeStream(of: Void.self)
                let (budget, log) = (budget, log)
                holder = Task {
                    try await budget.withReservation(of: bytes) {
                        log.add("holder")
                        for await _ in release { break }
                    }
                }
                self.releaser = releaser
            }

            /// Ends the holder's reservation and waits for it.
            func release() async throws {
                releaser.yield()
                try await holder.value
            }
        }

        /// A `HeldBudget` whose holder has started.
        private func heldBudget(holding bytes: Int) async throws -> HeldBudget {
            let held = HeldBudget(holding: bytes)
            try await waitUntil { held.budget.reservedBytes == bytes }
            return held
        }

        @Test func aReservationAloneRunsHoweverLarge() async throws {
            let budget = WorkingMemoryBudget(limit: 100)
            #expect(try await budget.withReservation(of: 500) { budget.reservedBytes } == 500)
            #expect(try await budget.withReservation(of: 0) { budget.reservedBytes } == 0)
            #expect(budget.reservedBytes == 0)
        }

        @Test func waitersStartInArrivalOrderWhenThereIsRoom() async throws {
            let held = try await heldBudget(holding: 60)
            let (budget, log) = (held.budget, held.log)
            let second = Task { try await budget.withReservation(of: 60) { log.add("second") } }
            try await waitUntil { budget.waitingCount == 1 }
            // 30 more would fit beside the holder, but the second reservation came first.
            let third = Task { try await budget.withReservation(of: 30) { log.add("third") } }
            try await waitUntil { budget.waitingCount == 2 }
            #expect(log.all == ["holder"])
            try await held.release()
            try await second.value
            try await third.value
            #expect(log.all.count == 3 && Set(log.all.dropFirst()) == ["second", "third"])
            #expect(budget.reservedBytes == 0 && budget.waitingCount == 0)
        }

        @Test func aCancelledWaiterLeavesTheQueueWithoutRunning() async throws {
            let held = try await heldBudget(holding: 80)
            let (budget, log) = (held.budget, held.log)
            let cancelled = Task { try await budget.withReservation(of: 50) { log.add("cancelled") } }
            try await waitUntil { budget.waitingCount == 1 }
            let small = Task { try await budget.withReservation(of: 10) { log.add("small") } }
            try await waitUntil { budget.waitingCount == 2 }
            cancelled.cancel()
            await #expect(throws: CancellationError.self) { try await cancelled.value }
            // With the waiter ahead of it gone, the small one fits beside the holder.
            try await small.value
            #expect(log.all == ["holder", "small"])
            try await held.release()
            #expect(budget.reservedBytes == 0 && budget.waitingCount == 0)
        }

        @Test func aTaskCancelledBeforeWaitingDoesNotWait() async throws {
            let held = try await heldBudget(holding: 80)
            let (budget, log) = (held.budget, held.log)
            let cancelled = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await budget.withReservation(of: 50) { log.add("cancelled") }
            }
            await #expect(throws: CancellationError.self) { try await cancelled.value }
            #expect(budget.waitingCount == 0)
            try await held.release()
            #expect(log.all == ["holder"])
        }

        @Test func progressiveJPEGsReserveTheirCoefficientsBeyondTheImage() throws {
            // 24×16 4:2:0: 6 luma blocks and 2 of each chroma, 128 bytes each; at this size the
            // release steps are larger than the coefficients, all of which are reserved.
            #expect(JPEGCodec.workingMemory(try fixture("progressive.jpg"), maxPixels: 1000) == 10 * 128)
            #expect(JPEGCodec.workingMemory(try fixture("subsampling-422.jpg"), maxPixels: 1000) == 0)
            #expect(JPEGCodec.workingMemory(try fixture("progressive.jpg"), maxPixels: 100) == 0)
            // The same 4:2:2 header claiming 4000×3000: 187,500 luma blocks and 93,750 of each
            // chroma, 48 MB of coefficients for a 36 MB image; the decode gives the coefficients
            // back as it writes the pixels, so only the 12 MB excess (and the steps) is reserved.
            let large = try Self.withSize(width: 4000, height: 3000, of: try fixture("gradient-progressive.jpg"))
            #expect(JPEGCodec.workingMemory(large, maxPixels: 100_000_000) == 12_000_000 + JPEGCodec.releaseSlack)
            #expect(ImageCodec.decoderWorkingMemory(try fixture("rgba.png"), maxPixels: 1000) == 0)
            #expect(ImageCodec.decoderWorkingMemory(Data("not an image".utf8), maxPixels: 1000) == 0)
        }

        /// `jpeg` with the size in its start-of-frame header replaced (the header alone: the
        /// scans no longer match).
        private static func withSize(width: Int, height: Int, of jpeg: Data) throws -> Data {
            var bytes = [UInt8](jpeg)
            let frame = try #require((2..<(bytes.count - 9)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 })
            bytes.replaceSubrange(
                (frame + 5)..<(frame + 9),
                with: [
                    UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                ])
            return Data(bytes)
        }
    }
}
