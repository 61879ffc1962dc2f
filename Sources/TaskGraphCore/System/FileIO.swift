import Foundation

/// Whole-file reads and atomic writes with POSIX error messages. Blocking: call through
/// `BlockingIO.run` or a run's `RunResources.blockingIO`.
package enum FileIO {
    /// The contents of `path`.
    /// - Throws: `OperationError.readFailed` with the system's reason.
    package static func read(_ path: String) throws(OperationError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .readFailed(path: path, reason: lastErrorText()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .readFailed(path: path, reason: lastErrorText()) }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw .readFailed(path: path, reason: "Is a directory") }
        var data = Data(capacity: max(Int(info.st_size), 0))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: lastErrorText())
            }
            data.append(contentsOf: chunk[0..<count])
        }
        return data
    }

    /// The most bytes `writeAtomically` writes between two checks of cancellation: at a slow
    /// disk's 30 MB/s, about 35 ms.
    static let writeChunkSize = 1 << 20

    /// Writes `data` to `path` atomically: into a temporary file in the same directory, flushed,
    /// then renamed over `path`. Creates missing directories. Readers see the old file or the
    /// new one, never a partial one; on any failure or cancellation the temporary file is
    /// removed, and `temporaryFiles.abandonAll()` removes it if the process is about to exit.
    /// - Parameters:
    ///   - isCancelled: checked before every chunk of `writeChunkSize` bytes, before the flush
    ///     and before the rename; when it returns true nothing is written.
    ///   - temporaryFiles: where the temporary file is registered while it exists: a run's
    ///     (`RunResources.temporaryFiles`), or by default a registry of this write's own.
    /// - Throws: `OperationError.writeFailed`, or `CancellationError`.
    package static func writeAtomically(
        _ data: Data, to path: String, isCancelled: () -> Bool = { false },
        temporaryFiles: TemporaryFiles = TemporaryFiles()
    ) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw OperationError.writeFailed(path: path, reason: "cannot create directory '\(directory)'")
            }
        }
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
                write(descriptor, bytes.baseAddress! + offset, count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw OperationError.writeFailed(path: path, reason: lastErrorText())
            }
            offset += written
        }
        if isCancelled() { throw CancellationError() }
        guard fchmod(descriptor, 0o644) == 0, fsync(descriptor) == 0 else {
            throw OperationError.writeFailed(path: path, reason: lastErrorText())
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
