import Foundation

/// Whole-file reads and atomic writes with POSIX error messages. Blocking: call through
/// `BlockingIO.run` or a run's `RunResources.blockingIO`.
package enum FileIO {
    /// The most bytes `read` returns unless told otherwise: more than any pipeline, key or
    /// configuration file holds, and a bound on what a `load` keeps in memory by default.
    package static let defaultReadLimit = 256 << 20

    /// The contents of the regular file at `path`, at most `limit` bytes. Opened without
    /// blocking, so a FIFO without a writer is refused at once instead of hanging the read.
    /// - Throws: `FileError.readFailed` with the system's reason, or naming what `path`
    ///   is when it is not a regular file (a directory, device, FIFO or socket);
    ///   `FileError.fileTooLarge` when it holds more than `limit` bytes.
    package static func read(_ path: String, limit: Int = defaultReadLimit) throws(FileError) -> Data {
        guard let data = try readIfPresent(path, limit: limit) else {
            throw .readFailed(path: path, reason: String(cString: strerror(ENOENT)))
        }
        return data
    }

    /// `read`, or nil when nothing is at `path` (`ENOENT`, told by the failed open itself: no
    /// `stat` after it, for a caller that often asks for a file that is not there).
    /// - Throws: what `read` throws, but for a missing file.
    package static func readIfPresent(_ path: String, limit: Int = defaultReadLimit) throws(FileError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .readFailed(path: path, reason: lastErrorText())
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .readFailed(path: path, reason: lastErrorText()) }
        if let kind = nonRegularKind(info.st_mode) { throw .readFailed(path: path, reason: kind) }
        guard Int(info.st_size) <= limit else { throw .fileTooLarge(path: path, limit: limit) }
        // Read straight into the buffer the data keeps: a store's files are megabytes, read at
        // every run. One byte more than the size shows a file that grew while it was read.
        var capacity = max(Int(info.st_size), 0) + 1
        guard var buffer = malloc(capacity) else {
            throw .readFailed(path: path, reason: String(cString: strerror(ENOMEM)))
        }
        var filled = 0
        while true {
            if filled == capacity {
                guard filled <= limit, let grown = realloc(buffer, 2 * capacity) else {
                    free(buffer)
                    throw filled > limit
                        ? .fileTooLarge(path: path, limit: limit)
                        : .readFailed(path: path, reason: String(cString: strerror(ENOMEM)))
                }
                (buffer, capacity) = (grown, 2 * capacity)
            }
            let count = Foundation.read(descriptor, buffer + filled, capacity - filled)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = lastErrorText()
                free(buffer)
                throw .readFailed(path: path, reason: reason)
            }
            filled += count
        }
        guard filled <= limit else {
            free(buffer)
            throw .fileTooLarge(path: path, limit: limit)
        }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
    }

    /// What a file of `mode` is, as the reason a whole-file read refuses it; nil for a regular file.
    package static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "Is a directory"
        case S_IFIFO: "not a regular file (a FIFO)"
        case S_IFSOCK: "not a regular file (a socket)"
        case S_IFCHR, S_IFBLK: "not a regular file (a device)"
        default: "not a regular file"
        }
    }

    /// The most bytes `writeAtomically` writes between two checks of cancellation: at a slow
    /// disk's 30 MB/s, about 35 ms.
    static let writeChunkSize = 1 << 20

    /// Writes `data` to `path` atomically: into a temporary file in the same directory, flushed,
    /// then renamed over `path`. Creates missing directories. Readers see the old file or the
    /// new one, never a partial one; on any failure or cancellation the temporary file is
    /// removed, and `temporaryFiles.abandonAll()` removes it if the process is about to exit.
    /// - Parameters:
    ///   - root: when given, `path` lies beneath it and is reached without following a
    ///     symbolic link below it (`ContainedDirectory`).
    ///   - isCancelled: checked before every chunk of `writeChunkSize` bytes, before the flush
    ///     and before the rename; when it returns true nothing is written.
    ///   - temporaryFiles: where the temporary file is registered while it exists: a run's
    ///     (`RunResources.temporaryFiles`), or by default a registry of this write's own.
    ///   - flushing: whether the file is flushed (`fsync`) before the rename (false: a file that
    ///     can be restored again, such as an output restored from the store on a run that does
    ///     not flush the store).
    /// - Throws: `FileError.writeFailed`, or `CancellationError`.
    package static func writeAtomically(
        _ data: Data, to path: String, beneath root: String? = nil, isCancelled: () -> Bool = { false },
        temporaryFiles: TemporaryFiles = TemporaryFiles(), flushing: Bool = true
    ) throws {
        let name = (path as NSString).lastPathComponent
        let directory = try root.map { try ContainedDirectory(parentOf: path, beneath: $0) }
        if directory == nil {
            try createDirectory(of: path)
        }
        do {
            // The descriptor must stay open until the file is renamed: its path goes through it.
            try withExtendedLifetime(directory) {
                try writeThroughTemporary(
                    data, to: directory?.path(of: name) ?? path, isCancelled: isCancelled,
                    temporaryFiles: temporaryFiles,
                    flushing: flushing)
            }
        } catch FileError.writeFailed(_, let reason) {
            throw FileError.writeFailed(path: path, reason: reason)
        }
    }

    /// Creates the missing directories above `path`.
    private static func createDirectory(of path: String) throws(FileError) {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            // FileManager's error names no reason; mkdir's errno does (`Not a directory`).
            guard mkdir(directory, 0o755) != 0 else { return }
            throw .writeFailed(path: path, reason: "cannot create directory '\(directory)': \(lastErrorText())")
        }
    }

    /// Writes `data` to `path` through a temporary file beside it (see `writeAtomically`).
    private static func writeThroughTemporary(
        _ data: Data, to path: String, isCancelled: () -> Bool, temporaryFiles: TemporaryFiles, flushing: Bool
    ) throws {
        let (descriptor, temporary) = try temporaryFiles.create(beside: path)
        var committed = false
        defer {
            close(descriptor)
            if !committed { temporaryFiles.discard(temporary) }
        }
        var offset = 0
        while offset < data.count {
            if isCancelled() { throw CancellationError() }
            let count = min(writeChunkSize, data.count - offset)
            let written = data.withUnsafeBytes { bytes in
                Foundation.write(descriptor, bytes.baseAddress! + offset, count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileError.writeFailed(path: path, reason: lastErrorText())
            }
            offset += written
        }
        if isCancelled() { throw CancellationError() }
        guard fchmod(descriptor, 0o644) == 0, !flushing || fsync(descriptor) == 0 else {
            throw FileError.writeFailed(path: path, reason: lastErrorText())
        }
        if isCancelled() { throw CancellationError() }
        try temporaryFiles.commit(temporary, to: path)
        committed = true
    }

    /// `strerror(errno)`.
    package static func lastErrorText() -> String {
        String(cString: strerror(errno))
    }
}
