import CSystemShims
import Foundation
import TaskGraphCore

/// Store files written in full whose flush and rename are done many at a time, on a thread of
/// their own, instead of each on the path of the operation that wrote it: a group commit.
///
/// The store's rule holds as before: a file is written into `tmp/`, flushed to disk, and only
/// then renamed into place. A group's files are all sent to disk first, then flushed one after
/// the other, so that few journal commits of the file system cover them all, and then renamed in the
/// order they were handed in: a record, handed in after the blobs it names, never appears
/// before them. Until it is placed a file is seen by nobody (another process, a lookup in this
/// one): at worst an operation runs again. `drain` waits for every file handed in so far; a
/// process killed before that leaves only temporary files, which a collection removes.
final class GroupCommit: Sendable {
    /// A temporary file written in full, still open, waiting to be flushed and renamed.
    struct Entry: Sendable {
        var descriptor: Int32
        var temporary: String
        var path: String
    }

    private struct State {
        /// Handed in and not yet taken by the committing thread.
        var waiting: [Entry] = []
        /// The destinations of the files handed in and not yet placed, with their counts.
        var unplaced: [String: Int] = [:]
        var committing = false
        /// Callers of `drain` to resume once nothing is left to place.
        var drainers: [CheckedContinuation<Void, Never>] = []
        /// Why files could not be placed, since the last `drain`.
        var failures: [String] = []
    }

    /// At most this many files wait: past it a writer places its own file, so that a burst of
    /// writes holds a bounded number of descriptors.
    static let limit = 256

    private let layout: StoreLayout
    private let state = Locked(State())

    init(layout: StoreLayout) {
        self.layout = layout
    }

    /// Takes `entry` to flush and place later, starting the committing thread if none runs.
    /// - Returns: false, taking nothing, when `limit` files wait already.
    func add(_ entry: Entry) -> Bool {
        let start: Bool? = state.withLock { state in
            guard state.waiting.count < Self.limit else { return nil }
            state.waiting.append(entry)
            state.unplaced[entry.path, default: 0] += 1
            guard !state.committing else { return false }
            state.committing = true
            return true
        }
        guard let start else { return false }
        if start { BlockingThreadPool.startThread { self.commitWaiting() } }
        return true
    }

    /// Whether a file handed in for `path` is not placed yet.
    func isUnplaced(_ path: String) -> Bool {
        state.withLock { $0.unplaced[path] != nil }
    }

    /// Waits until every file handed in so far is placed (or abandoned).
    /// - Returns: why files could not be placed since the last call, each reason once.
    func drain() async -> [String] {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state in
                guard state.committing else { return true }
                state.drainers.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
        return state.withLock { state in
            defer { state.failures = [] }
            var seen: Set<String> = []
            return state.failures.filter { seen.insert($0).inserted }
        }
    }

    /// The committing thread: flushes and places groups of waiting files until none is left.
    private func commitWaiting() {
        while true {
            let group = state.withLock { state in
                defer { state.waiting = [] }
                return state.waiting
            }
            guard !group.isEmpty else {
                let drainers: [CheckedContinuation<Void, Never>]? = state.withLock { state in
                    // Something may have been handed in since the group was taken.
                    guard state.waiting.isEmpty else { return nil }
                    state.committing = false
                    defer { state.drainers = [] }
                    return state.drainers
                }
                guard let drainers else { continue }
                for drainer in drainers { drainer.resume() }
                return
            }
            var failures: [String] = []
            var flushed: [Entry] = []
            for entry in group { _ = tg_start_writeback(entry.descriptor) }
            for entry in group {
                do {
                    try StoreIO.finish(entry.descriptor, entry.temporary, layout)
                    flushed.append(entry)
                } catch {
                    failures.append("\(error)")
                }
            }
            for entry in flushed {
                do {
                    try StoreIO.place(entry.temporary, at: entry.path, layout)
                } catch {
                    failures.append("\(error)")
                }
            }
            state.withLock { state in
                for entry in group {
                    let count = state.unplaced[entry.path, default: 1] - 1
                    state.unplaced[entry.path] = count > 0 ? count : nil
                }
                state.failures += failures
            }
        }
    }
}
