import Foundation
import TaskGraphCore

/// Directories watched with inotify for files written, created, moved or removed: what
/// `run --watch` waits on between runs. A directory is watched as a whole (an editor that saves
/// by renaming a new file over the old one is seen), and a path is reported only when it matters
/// to the pipeline (`isIgnored` passes over the run's own outputs and editors' scratch files).
final class FileWatcher: Sendable {
    /// The inotify descriptor.
    private let descriptor: Int32
    /// The watched directories, by watch descriptor: where an event's name is.
    private let directories: Locked<[Int32: String]>
    /// Whether a changed path is of no interest.
    private let isIgnored: @Sendable (String) -> Bool

    /// A watcher of nothing yet.
    /// - Throws: `WatchError.cannotWatch` when inotify cannot be set up (its limits reached).
    init(ignoring isIgnored: @escaping @Sendable (String) -> Bool) throws(WatchError) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw .cannotWatch(path: "inotify", reason: String(cString: strerror(errno))) }
        directories = Locked([:])
        self.isIgnored = isIgnored
    }

    deinit { close(descriptor) }

    /// Watches `directory` (and, when `recursive`, every directory below it that is not
    /// ignored); a directory that does not exist is passed over.
    /// - Throws: `WatchError.cannotWatch` when inotify refuses (its limit of watches reached).
    func watch(_ directory: String, recursive: Bool) throws(WatchError) {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        let watchDescriptor = inotify_add_watch(descriptor, directory, mask | UInt32(IN_ONLYDIR))
        guard watchDescriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return }
            throw .cannotWatch(path: directory, reason: String(cString: strerror(errno)))
        }
        directories.withLock { $0[watchDescriptor] = directory }
        guard recursive, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names.sorted() {
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                !isIgnored(path)
            {
                try watch(path, recursive: true)
            }
        }
    }

    /// Waits for a change that is not ignored, then for `quietPeriod` without another (a burst of
    /// saves is one change), and returns the paths that changed, sorted. Blocks a thread of its
    /// own; returns early, with what it has, when `stop` says so.
    func nextChange(quietPeriod: Duration, stop: @escaping @Sendable () -> Bool) async throws -> [String] {
        try await BlockingIO.run { [self] in
            var changed = Set<String>()
            while !stop() {
                let waitMilliseconds =
                    changed.isEmpty
                    ? 50
                    : Int32(
                        quietPeriod.components.seconds * 1000
                            + quietPeriod.components.attoseconds / 1_000_000_000_000_000)
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, waitMilliseconds)
                if ready > 0 {
                    changed.formUnion(readEvents())
                } else if ready == 0, !changed.isEmpty {
                    break
                }
            }
            return changed.sorted()
        }
    }

    /// The paths named by the events waiting on the descriptor that are not ignored.
    private func readEvents() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        let known = directories.withLock { $0 }
        var paths: [String] = []
        var offset = 0
        buffer.withUnsafeBytes { bytes in
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = bytes[nameStart..<nameStart + Int(event.len)].prefix { $0 != 0 }
                offset = nameStart + Int(event.len)
                guard let directory = known[event.wd], !nameBytes.isEmpty else { continue }
                let path = directory + "/" + String(decoding: nameBytes, as: UTF8.self)
                if !isIgnored(path) { paths.append(path) }
            }
        }
        return paths
    }
}
