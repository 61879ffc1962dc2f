import Foundation
import Synchronization
import TaskGraphCore

/// Runs pixel work in bands (of rows, or of columns) on `BlockingIO` threads, one worker per
/// core, so kernels never occupy the cooperative pool. Workers take bands in order from a
/// shared counter and stop taking them once the task is cancelled.
enum ParallelBands {
    /// Calls `body` once for every band of `bandSize` items covering `0..<count`, in parallel,
    /// and returns when all have run.
    /// - Throws: `CancellationError` if the task was cancelled (some bands may not have run).
    static func run(
        count: Int, bandSize: Int, _ body: @escaping @Sendable (Range<Int>) -> Void
    ) async throws {
        try await run(count: count, bandSize: bandSize, scratch: {}) { rows, _ in body(rows) }
    }

    /// `run`, with scratch space made once per worker by `makeScratch` (on the worker's thread)
    /// and handed to every band that worker runs, so kernels don't allocate per band.
    static func run<Scratch>(
        count: Int, bandSize: Int, scratch makeScratch: @escaping @Sendable () -> Scratch,
        _ body: @escaping @Sendable (Range<Int>, Scratch) -> Void
    ) async throws {
        guard count > 0 else { return }
        let bandSize = max(bandSize, 1)
        let bands = (count + bandSize - 1) / bandSize
        let workers = workerCount(bands: bands)
        let next = BandCounter()
        try await CancellationFlag.run { flag in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask {
                        try await BlockingIO.run {
                            var scratch: Scratch?
                            while !flag.isCancelled {
                                let band = next.take()
                                guard band < bands else { return }
                                let current = scratch ?? makeScratch()
                                scratch = current
                                body((band * bandSize)..<min(count, (band + 1) * bandSize), current)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        try Task.checkCancellation()
    }

    /// How many workers run `bands` bands: one per core, at most one per band.
    static func workerCount(bands: Int) -> Int {
        min(ProcessInfo.processInfo.activeProcessorCount, bands)
    }

    /// A band size giving each band roughly `samples` samples when items are `itemSize` long.
    static func bandSize(itemSize: Int, samples: Int = 1 << 18) -> Int {
        max(1, samples / max(itemSize, 1))
    }
}

/// The index of the next band to take, shared by the workers of one run.
private final class BandCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Takes the next index.
    func take() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
