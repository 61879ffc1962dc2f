import Foundation

/// Runs independent work over `0..<count` in contiguous chunks on every core at once, for the
/// synchronous parts of loading a large pipeline, and hands back the chunks' results in order:
/// a caller that concatenates them gets exactly what a single pass would give, whatever the
/// timing.
///
/// The calling thread takes the first chunk; the others are `ParallelBands` of one chunk each,
/// on threads started for this call (pipeline loading runs before any run, so there is no run's
/// pool to borrow) and done before returning, so no work lands on the cooperative pool. Call it
/// only where blocking is allowed (`Pipeline.load` runs on a blocking thread).
enum ParallelChunks {
    /// Below this many items per chunk the work runs as one chunk on the calling thread: a
    /// thread costs tens of microseconds, a couple of thousand operations several milliseconds.
    static let minimumChunkSize = 2_048

    /// The elements and diagnostics `body` appends for contiguous chunks covering `0..<count`,
    /// joined in chunk order. The calling thread's chunk appends straight to the result (reserved
    /// for `count` elements), so only the other chunks' elements are copied.
    /// - Parameters:
    ///   - count: The number of items.
    ///   - minimumChunkSize: The fewest items worth a chunk (and a thread) of their own.
    ///   - body: Appends the elements and diagnostics of one chunk; it must not depend on other
    ///     chunks.
    static func collect<Element: Sendable>(
        count: Int, minimumChunkSize: Int = minimumChunkSize,
        _ body: @escaping @Sendable (Range<Int>, inout [Element], inout [Diagnostic]) -> Void
    ) -> (elements: [Element], diagnostics: [Diagnostic]) {
        let chunkCount = min(
            ProcessInfo.processInfo.activeProcessorCount, max(1, count / max(minimumChunkSize, 1)))
        let bounds = (0...chunkCount).map { $0 * count / chunkCount }
        let others = ChunkResults<(elements: [Element], diagnostics: [Diagnostic])>(count: chunkCount)
        var elements: [Element] = []
        var diagnostics: [Diagnostic] = []
        ParallelBands.runBlocking(
            count: chunkCount - 1, bandSize: 1, workers: chunkCount,
            submit: BlockingThreadPool.startThread,
            callerFirst: {
                elements.reserveCapacity(count)
                body(bounds[0]..<bounds[1], &elements, &diagnostics)
            }
        ) { otherChunks in
            for chunk in otherChunks.map({ $0 + 1 }) {
                var chunkElements: [Element] = []
                var chunkDiagnostics: [Diagnostic] = []
                chunkElements.reserveCapacity(bounds[chunk + 1] - bounds[chunk])
                body(bounds[chunk]..<bounds[chunk + 1], &chunkElements, &chunkDiagnostics)
                others.store((chunkElements, chunkDiagnostics), at: chunk)
            }
        }
        for chunk in others.taken(from: 1) {
            elements += chunk.elements
            diagnostics += chunk.diagnostics
        }
        return (elements, diagnostics)
    }
}

/// The results of the chunks run on other threads, each stored once by its own thread.
private final class ChunkResults<Result: Sendable>: Sendable {
    private let slots: Locked<[Result?]>

    init(count: Int) {
        slots = Locked([Result?](repeating: nil, count: count))
    }

    func store(_ result: Result, at chunk: Int) {
        slots.withLock { $0[chunk] = result }
    }

    /// The results of chunks `first...`; call after every one of them was stored.
    func taken(from first: Int) -> [Result] {
        slots.withLock { slots in slots[first...].map { $0! } }
    }
}
