import Dispatch
import Foundation

/// Runs independent work over `0..<count` in bands, in parallel, on blocking threads: the
/// project's one parallel-for, behind pixel kernels (`run`, from async code, on the current
/// run's `BlockingThreadPool`), the synchronous parts of pipeline loading (`collect`, chunks
/// joined in order) and the store's file work (`forEach`, more threads than cores), the last
/// two through `runBlocking`, where the calling thread takes part. Workers take bands in order
/// from a shared counter, so a worker
/// that starts late finds nothing left and returns, and nothing waits for a worker that never
/// started.
///
/// `@usableFromInline`, so that `collect`'s `@inlinable` body is specialised in its callers in
/// other modules (see there).
@usableFromInline package enum ParallelBands {
    /// Calls `body` once for every band of `bandSize` items covering `0..<count`, in parallel,
    /// and returns when all have run.
    /// - Throws: `CancellationError` if the task was cancelled (some bands may not have run).
    package static func run(
        count: Int, bandSize: Int, _ body: @escaping @Sendable (Range<Int>) -> Void
    ) async throws {
        try await run(count: count, bandSize: bandSize, scratch: {}, { rows, _ in body(rows) })
    }

    /// `run`, with scratch space made once per worker by `makeScratch` (on the worker's thread)
    /// and handed to every band that worker runs, so kernels don't allocate per band. Workers run
    /// on the current run's pool (outside a run, on threads of their own), one per core at most.
    package static func run<Scratch>(
        count: Int, bandSize: Int, scratch makeScratch: @escaping @Sendable () -> Scratch,
        _ body: @escaping @Sendable (Range<Int>, Scratch) -> Void
    ) async throws {
        guard count > 0 else { return }
        let schedule = BandSchedule(count: count, bandSize: bandSize)
        let submit = BlockingIO.currentSubmit
        let meter = UsageMeter.current
        let measured: @Sendable (Range<Int>, Scratch) -> Void = { rows, scratch in
            UsageMeter.measure({ body(rows, scratch) }, into: meter)
        }
        await CancellationFlag.run { flag in
            await withCheckedContinuation { continuation in
                schedule.whenFinished(.resume(continuation))
                for _ in 0..<workerCount(bands: schedule.bands) {
                    submit { schedule.work(makeScratch: makeScratch, measured, isCancelled: { flag.isCancelled }) }
                }
            }
        }
        schedule.joinWorkers()
        try Task.checkCancellation()
    }

    /// Calls `body` for every band of `bandSize` items covering `0..<count`: on up to
    /// `workers - 1` threads from `submit` and on the calling thread, which first runs
    /// `callerFirst` and then takes bands too, so this returns even if `submit` never runs what
    /// it is given. Blocks: call it where blocking is allowed.
    @usableFromInline package static func runBlocking(
        count: Int, bandSize: Int, workers: Int,
        submit: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        callerFirst: () -> Void = {}, _ body: @escaping @Sendable (Range<Int>) -> Void
    ) {
        let schedule = BandSchedule(count: count, bandSize: bandSize)
        for _ in 1..<max(workers, 1) {
            submit { schedule.work(makeScratch: {}, { rows, _ in body(rows) }, isCancelled: { false }) }
        }
        callerFirst()
        schedule.work(makeScratch: {}, { rows, _ in body(rows) }, isCancelled: { false })
        let finished = DispatchSemaphore(value: 0)
        schedule.whenFinished(.signal(finished))
        finished.wait()
        schedule.joinWorkers()
    }

    /// How many workers run `bands` bands: one per core, at most one per band.
    package static func workerCount(bands: Int) -> Int {
        min(ProcessInfo.processInfo.activeProcessorCount, bands)
    }

    /// A band size giving each band roughly `samples` samples when items are `itemSize` long.
    package static func bandSize(itemSize: Int, samples: Int = 1 << 18) -> Int {
        max(1, samples / max(itemSize, 1))
    }
}

/// The bands of one `ParallelBands` call: which is next, how many are running, and who waits
/// for the end (the moment no band is left to take and none is running).
private final class BandSchedule: Sendable {
    /// Who is told that every band taken has finished.
    enum Waiter: Sendable {
        case resume(CheckedContinuation<Void, Never>)
        case signal(DispatchSemaphore)

        func wake() {
            switch self {
            case .resume(let continuation): continuation.resume()
            case .signal(let semaphore): semaphore.signal()
            }
        }
    }

    private struct State {
        var next = 0
        var running = 0
        /// Set when a worker found no band to take (all taken, or cancelled).
        var exhausted = false
        var waiter: Waiter?

        /// The waiter, taken, if the schedule is finished.
        mutating func finishedWaiter() -> Waiter? {
            guard exhausted, running == 0, let waiter else { return nil }
            self.waiter = nil
            return waiter
        }
    }

    let count: Int
    let bandSize: Int
    let bands: Int
    private let state = Locked(State())

    init(count: Int, bandSize: Int) {
        self.count = count
        self.bandSize = max(bandSize, 1)
        bands = (count + self.bandSize - 1) / self.bandSize
    }

    /// Registers the one waiter; it is woken at once if the schedule is finished already.
    func whenFinished(_ waiter: Waiter) {
        state.withLock { state in
            state.waiter = waiter
            return state.finishedWaiter()
        }?.wake()
    }

    /// Takes the lock once more, after the waiter was woken, so that every band's writes are
    /// seen to happen before what the waiter does next. They do anyway, but ThreadSanitizer
    /// does not see it through a continuation resumed before its task suspended (the runtime's
    /// fast path) or a semaphore; it sees the lock's annotations (`Locked`).
    func joinWorkers() {
        state.withLock { _ in }
    }

    /// Takes bands and runs `body` on them until none is left or `isCancelled()`.
    func work<Scratch>(
        makeScratch: () -> Scratch, _ body: (Range<Int>, Scratch) -> Void, isCancelled: () -> Bool
    ) {
        var scratch: Scratch?
        while let rows = take(isCancelled: isCancelled()) {
            let current = scratch ?? makeScratch()
            scratch = current
            body(rows, current)
            state.withLock { state in
                state.running -= 1
                return state.finishedWaiter()
            }?.wake()
        }
    }

    private func take(isCancelled: Bool) -> Range<Int>? {
        let (band, waiter) = state.withLock { state -> (Int?, Waiter?) in
            guard !isCancelled, state.next < bands else {
                state.exhausted = true
                return (nil, state.finishedWaiter())
            }
            state.next += 1
            state.running += 1
            return (state.next - 1, nil)
        }
        waiter?.wake()
        return band.map { ($0 * bandSize)..<min(count, ($0 + 1) * bandSize) }
    }
}
