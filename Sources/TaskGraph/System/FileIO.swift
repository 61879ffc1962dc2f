import Foundation

/// Whole-file reads and atomic writes with POSIX error messages. Blocking: call through
/// `BlockingIO.run`.
enum FileIO {
    /// The contents of `path`.
    /// - Throws: `OperationError.readFailed` with the system's reason.
    static func read(_ path: String) throws(OperationError) -> Data {
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

    /// Writes `data` to `path` atomically: into a temporary file in the same directory, flushed,
    /// then renamed over `path`. Creates missing directories. Readers see the old file or the
    /// new one, never a partial one; on any failure the temporary file is removed.
    /// - Parameter isCancelled: checked before the rename; when it returns true nothing is written.
    /// - Throws: `OperationError.writeFailed`, or `CancellationError`.
    static func writeAtomically(_ data: Data, to path: String, isCancelled: () -> Bool = { false }) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw OperationError.writeFailed(path: path, reason: "cannot create directory '\(directory)'")
            }
        }
        let name = (path as NSString).lastPathComponent
        var template = ((directory.isEmpty ? "" : directory + "/") + ".\(name).tmp-XXXXXX").utf8CString
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw OperationError.writeFailed(path: path, reason: lastErrorText()) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var renamed = false
        defer {
            close(descriptor)
            if !renamed { unlink(temporary) }
        }
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { bytes in
                write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw OperationError.writeFailed(path: path, reason: lastErrorText())
            }
            offset += written
        }
        guard fchmod(descriptor, 0o644) == 0, fsync(descriptor) == 0 else {
            throw OperationError.writeFailed(path: path, reason: lastErrorText())
        }
        if isCancelled() { throw CancellationError() }
        guard rename(temporary, path) == 0 else {
            throw OperationError.writeFailed(path: path, reason: lastErrorText())
        }
        renamed = true
    }

    /// `strerror(errno)`.
    static func lastErrorText() -> String {
        String(cString: strerror(errno))
    }
}
