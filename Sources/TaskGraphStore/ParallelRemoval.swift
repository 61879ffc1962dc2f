import Dispatch
import Foundation
import TaskGraphCore

/// Removes many files at once from several threads: removing a file waits on the disk (more
/// so on a file system that discards freed blocks at once), and those waits overlap. Blocking.
enum ParallelRemoval {
    /// The threads removing files at once.
    static let threads = 16

    /// Removes those of `files` for which `condition` (given each file's path) holds when its
    /// turn comes.
    /// - Returns: which were removed (`true` at the index of each file removed).
    static func remove(_ files: [ListedFile], if condition: @escaping @Sendable (String) -> Bool = { _ in true }) -> [Bool] {
        let removed = Locked([Bool](repeating: false, count: files.count))
        let group = DispatchGroup()
        let width = min(threads, files.count)
        for thread in 0..<width {
            group.enter()
            Thread.detachNewThread {
                var mine: [Int] = []
                for index in stride(from: thread, to: files.count, by: width)
                where condition(files[index].path) && unlink(files[index].path) == 0 {
                    mine.append(index)
                }
                removed.withLock { removed in
                    for index in mine { removed[index] = true }
                }
                group.leave()
            }
        }
        group.wait()
        return removed.withLock { $0 }
    }
}
