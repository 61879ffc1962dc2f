import Dispatch
import Foundation
import TaskGraphCore

/// Runs numbered pieces of blocking file work on several threads of its own, each taking the
/// next piece when done with one. More threads than cores: each waits on the disk or the
/// network file system much of the time (a directory listed, a file removed), and those waits
/// overlap. Blocking.
enum ParallelWork {
    /// The threads a store's listing uses.
    static let threads = 8

    /// Calls `body` with every index in `0..<count`, on up to `threads` threads at once, and
    /// returns when all calls have.
    static func forEach(_ count: Int, threads: Int = threads, _ body: @escaping @Sendable (Int) -> Void) {
        let next = Locked(0)
        let group = DispatchGroup()
        for _ in 0..<min(threads, count) {
            group.enter()
            Thread.detachNewThread {
                while true {
                    let index = next.withLock { next in
                        defer { next += 1 }
                        return next
                    }
                    guard index < count else { break }
                    body(index)
                }
                group.leave()
            }
        }
        group.wait()
    }
}
