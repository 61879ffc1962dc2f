import Foundation
import TaskGraphCore

/// Reads files in pieces, hashing them, and optionally copying them into the store or reading
/// a small one into memory. Blocking: call through `BlockingIO.run`.
enum FileHasher {
    /// A file read to its end.
    struct Hashed {
        /// The SHA-256 of its contents.
        var digest: ContentDigest
        /// Its `stat` before reading, or nil when it changed while being read.
        var stableStat: FileStat?
        /// When reading started, in nanoseconds since 1970.
        var started: Int64
    }

    /// The bytes read at a time.
    static let chunkSize = 1 << 20

    /// Hashes the regular file at `path` (anything else is refused: a device may never end),
    /// handing every piece read to `consume` as well.
    /// - Throws: `OperationError.readFailed` naming `path`; what `consume` throws.
    static func hash(
        _ path: String, consuming consume: ((UnsafeRawBufferPointer) throws -> Void)? = nil
    ) throws -> Hashed {
        let started = wallClockNanoseconds()
        // Without blocking: a FIFO without a writer is refused below instead of hanging here.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw OperationError.readFailed(path: path, reason: StoreIO.errorText()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw OperationError.readFailed(path: path, reason: StoreIO.errorText())
        }
        if let kind = FileIO.nonRegularKind(info.st_mode) { throw OperationError.readFailed(path: path, reason: kind) }
        let before = FileStat(info)
        var hasher = ContentHasher()
        // A small file needs a small buffer (`cache verify` hashes thousands of them).
        let capacity = Int(min(Int64(chunkSize), max(before.size + 1, 4096)))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, capacity)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw OperationError.readFailed(path: path, reason: StoreIO.errorText())
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            hasher.update(chunk)
            try consume?(chunk)
        }
        let after = FileStat.of(descriptor: descriptor)
        return Hashed(digest: hasher.finalize(), stableStat: after == before ? before : nil, started: started)
    }

    /// Copies the file at `path` into a temporary file of the store, hashing it on the way.
    /// - Returns: what was hashed and the temporary file, written in full and still open as
    ///   `descriptor`: neither flushed nor renamed (`StoreIO.commit`).
    static func copy(_ path: String, into layout: StoreLayout) throws
        -> (hashed: Hashed, descriptor: Int32, temporary: String)
    {
        let (descriptor, temporary) = try StoreIO.createTemporary(layout)
        let hashed: Hashed
        do {
            hashed = try hash(path) { chunk in
                guard StoreIO.writeAll(descriptor, chunk) else {
                    throw StoreError.writeFailed(root: layout.root, reason: StoreIO.errorText())
                }
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        return (hashed, descriptor, temporary)
    }

    /// Reads the file at `path` into memory, hashing it on the way, unless it holds more than
    /// `limit` bytes (it may have grown since its size was looked up): such a file is better
    /// `copy`'d.
    /// - Returns: what was hashed and the contents read, or nil when there were more than
    ///   `limit` bytes.
    /// - Throws: `OperationError.readFailed` naming `path`.
    static func readWhole(_ path: String, limit: Int64, expectedSize: Int64) throws -> (hashed: Hashed, contents: Data)?
    {
        var contents = Data(capacity: Int(min(limit, max(0, expectedSize))))
        do {
            let hashed = try hash(path) { chunk in
                guard Int64(contents.count + chunk.count) <= limit else { throw OverLimit() }
                contents.append(chunk.assumingMemoryBound(to: UInt8.self))
            }
            return (hashed, contents)
        } catch is OverLimit {
            return nil
        }
    }

    /// `readWhole` found more than its limit.
    private struct OverLimit: Error {}
}
