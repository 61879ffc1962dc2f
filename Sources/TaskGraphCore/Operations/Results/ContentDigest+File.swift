import Foundation

extension ContentDigest {
    /// The SHA-256 of the contents of the regular file at `path`, read in slices of 1 MiB, or
    /// at once into a buffer of its size when smaller (an `exec`'s declared outputs are
    /// hashed by every run: 2,000 small ones each took a buffer of 1 MiB, two lanes' at once
    /// the peak of the run's memory). Blocking: call through the run's `blockingIO`.
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
        // One byte more than its size, so that a file that did not grow is read in one call.
        let capacity = Int(min(Int64(1 << 20), max(Int64(info.st_size) + 1, 4096)))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
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
