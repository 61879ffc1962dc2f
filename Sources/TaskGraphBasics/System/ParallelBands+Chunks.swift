import Foundation

extension ParallelBands {
    /// Below this many items per chunk `collect` runs the work as one chunk on the calling
    /// thread: a thread costs tens of microseconds, a couple of thousand operations several
    /// milliseconds.
    @usableFromInline package static let minimumChunkSize = 2_048

    /// Runs independent work over `0..<count` in contiguous chunks on every core at once, for
    /// the synchronous parts of loading a large pipeline, and hands back what the chunks
    /// appended, in chunk order: a caller that concatenates them gets exactly what a single
    /// pass would give, whatever the timing. The calling thread's chunk appends straight to
    /// the result (reserved for `count` elements), so only the other chunks' elements are
    /// copied.
    ///
    /// The calling thread takes the first chunk; the others are bands of one chunk each, on
    /// threads started for this call (pipeline loading runs before any run, so there is no
    /// run's pool to borrow) and done before returning, so no work lands on the cooperative
    /// pool. Call it only where blocking is allowed (`Pipeline.load` runs on a blocking thread).
    ///
    /// Inlined and specialised in its callers in other modules: this toolchain (Swift 6.3)
    /// serialises the body of an `@inlinable package` member only when the type it belongs to
    /// is `@usableFromInline` (or public), as `ParallelBands` is. The join still copies the
    /// other chunks' elements (`swift_arrayInitWithCopy`, through their type's value witnesses,
    /// specialised or not: 50,000 `OperationSpec`s and 50,000 nodes in a `validate` of 100,000
    /// operations on two cores).
    /// - Parameters:
    ///   - count: The number of items.
    ///   - minimumChunkSize: The fewest items worth a chunk (and a thread) of their own.
    ///   - body: Appends the elements and notes (diagnostics) of one chunk; it must not depend
    ///     on other chunks.
    @inlinable package static func collect<Element: Sendable, Note: Sendable>(
        count: Int, minimumChunkSize: Int = minimumChunkSize,
        _ body: @escaping @Sendable (Range<Int>, inout [Element], inout [Note]) -> Void
    ) -> (elements: [Element], notes: [Note]) {
        let chunkCount = min(
            ProcessInfo.processInfo.activeProcessorCount, max(1, count / max(minimumChunkSize, 1)))
        let bounds = (0...chunkCount).map { $0 * count / chunkCount }
        let others = ChunkResults<(elements: [Element], notes: [Note])>(count: chunkCount)
        var elements: [Element] = []
        var notes: [Note] = []
        runBlocking(
            count: chunkCount - 1, bandSize: 1, workers: chunkCount,
            submit: BlockingThreadPool.startThread,
            callerFirst: {
                elements.reserveCapacity(count)
                body(bounds[0]..<bounds[1], &elements, &notes)
            },
            { otherChunks in
                for chunk in otherChunks.map({ $0 + 1 }) {
                    var chunkElements: [Element] = []
                    var chunkNotes: [Note] = []
                    chunkElements.reserveCapacity(bounds[chunk + 1] - bounds[chunk])
                    body(bounds[chunk]..<bounds[chunk + 1], &chunkElements, &chunkNotes)
                    others.store((chunkElements, chunkNotes), at: chunk)
                }
            })
        for chunk in others.taken(from: 1) {
            elements += chunk.elements
            notes += chunk.notes
        }
        return (elements, notes)
    }

    /// `collect` for work that appends elements only.
    @inlinable package static func collect<Element: Sendable>(
        count: Int, minimumChunkSize: Int = minimumChunkSize,
        _ body: @escaping @Sendable (Range<Int>, inout [Element]) -> Void
    ) -> [Element] {
        collect(count: count, minimumChunkSize: minimumChunkSize) { (range, elements, _: inout [Never]) in
            body(range, &elements)
        }.elements
    }

    /// Calls `body` with every index in `0..<count`, on up to `threads` threads at once (the
    /// calling one among them), each taking the next index when done with one, and returns when
    /// all calls have: for blocking file work that waits on the disk or a network file system
    /// much of the time (a directory listed, a file removed), so more threads than cores make
    /// the waits overlap. Blocks.
    package static func forEach(_ count: Int, threads: Int = 8, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        runBlocking(count: count, bandSize: 1, workers: min(threads, count), submit: BlockingThreadPool.startThread) {
            band in
            for index in band { body(index) }
        }
    }
}

/// The results of the chunks `ParallelBands.collect` ran on other threads, each stored once by
/// its own thread. Visible to inlined code: `collect` is inlined into its callers in other
/// modules.
@usableFromInline final class ChunkResults<Result: Sendable>: Sendable {
    private let slots: Locked<[Result?]>

    @usableFromInline init(count: Int) {
        slots = Locked([Result?](repeating: nil, count: count))
    }

    @usableFromInline func store(_ result: Result, at chunk: Int) {
        slots.withLock { $0[chunk] = result }
    }

    /// The results of chunks `first...`; call after every one of them was stored.
    @usableFromInline func taken(from first: Int) -> [Result] {
        slots.withLock { slots in slots[first...].map { $0! } }
    }
}
