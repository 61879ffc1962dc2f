import Foundation

extension ContentDigest {
    /// The SHA-256 of the contents of the regular file at `path`, read in slices of 1 MiB (a
    /// file of any size costs that much memory). Blocking: call through the run's `blockingIO`.
    /// - Throws: `OperationError.readFailed` with the system's reason, or naming what `path` is
    ///   when it is not a regular file.
    package static func sha256(ofFileAt path: String) throws(OperationError) -> ContentDigest {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .readFailed(path: path, reason: FileIO.lastErrorText()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .readFailed(path: path, reason: FileIO.lastErrorText()) }
        if let kind = FileIO.nonRegularKind(info.st_mode) { throw .readFailed(path: path, reason: kind) }
        var hasher = ContentHasher()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: FileIO.lastErrorText())
            }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return hasher.finalize()
    }
}
