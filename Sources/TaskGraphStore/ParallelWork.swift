import Foundation
import TaskGraphCore

/// Runs numbered pieces of blocking file work on several threads, each taking the next piece
/// when done with one: `ParallelBands`, the project's one parallel-for, with bands of one piece
/// and more threads than cores. Each waits on the disk or the network file system much of the
/// time (a directory listed, a file removed), and those waits overlap. Blocking: the calling
/// thread takes pieces too.
enum ParallelWork {
    /// The threads a store's listing uses.
    static let threads = 8

    /// Calls `body` with every index in `0..<count`, on up to `threads` threads at once (the
    /// calling one among them), and returns when all calls have.
    static func forEach(_ count: Int, threads: Int = threads, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        ParallelBands.runBlocking(
            count: count, bandSize: 1, workers: min(threads, count), submit: BlockingThreadPool.startThread
        ) { band in
            for index in band { body(index) }
        }
    }
}
