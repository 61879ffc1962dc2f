import Foundation
import TaskGraphCore

/// A file the user named for a run's output (`--events`, `--trace`, `--report`, `report -o`).
/// A new path or a regular file is replaced atomically (a temporary file beside it, renamed
/// once complete); a FIFO or a character device (`/dev/stdout`, a pipe a reader waits on) is
/// written in place, never replaced by a rename; anything else (a socket, a block device) is
/// refused. Blocking.
public enum RequestedOutputFile {
    /// Why `path` cannot be written, or nil when it can be (it may not exist yet).
    public static func problem(with path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO, S_IFCHR: return nil
        case S_IFDIR: return "'\(path)' is a directory"
        default: return "'\(path)' is not a regular file, FIFO or character device"
        }
    }

    /// Writes `data` as the file at `path`, as the type says.
    /// - Throws: `OperationError.writeFailed` with the reason (`No space left on device`, a FIFO
    ///   no process reads).
    public static func write(_ data: Data, to path: String) throws {
        if let problem = problem(with: path) { throw OperationError.writeFailed(path: path, reason: problem) }
        guard isSpecial(path) else { return try FileIO.writeAtomically(data, to: path) }
        let descriptor = try openInPlace(path)
        defer { close(descriptor) }
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress! + offset, data.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw OperationError.writeFailed(path: path, reason: FileIO.lastErrorText()) }
            offset += written
        }
    }

    /// Opens `path` for writing as a stream: a special file in place, anything else created or
    /// truncated. A FIFO is opened without waiting for a reader: with none, this fails at once.
    /// - Returns: a blocking descriptor.
    /// - Throws: `OperationError.writeFailed` with the reason.
    public static func openForStreaming(_ path: String) throws -> Int32 {
        if let problem = problem(with: path) { throw OperationError.writeFailed(path: path, reason: problem) }
        if isSpecial(path) { return try openInPlace(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OperationError.writeFailed(path: path, reason: FileIO.lastErrorText()) }
        return descriptor
    }

    /// Whether `path` is a FIFO or a character device (following links).
    private static func isSpecial(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && [S_IFIFO, S_IFCHR].contains(info.st_mode & S_IFMT)
    }

    private static func openInPlace(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENXIO ? "no process reads the FIFO" : FileIO.lastErrorText()
            throw OperationError.writeFailed(path: path, reason: reason)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }
}
