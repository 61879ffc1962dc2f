import CSystemShims
import Foundation
import TaskGraphCore

/// The store's blocking file operations: directories of mode 0700, files of mode 0600 written
/// into `tmp/` and renamed into place once complete (and flushed, unless the caller says not to:
/// docs/cache.md, "Writing"), whole-file reads. Call them through `BlockingIO.run`.
enum StoreIO {
    /// How a temporary file's name starts: `tmp/write-<pid>-XXXXXX`. No blob or record is named
    /// like this, so a leftover of a killed process is never taken for one.
    static let temporaryPrefix = "write-"

    /// `strerror(errno)`.
    static func errorText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// The directory of `path`, an absolute path of the store: what precedes its last `/`. Not
    /// `NSString`'s path parsing, which cost 2 % of a run of remote hits (two files written each).
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates `path` and any missing parent, each of mode 0700 whatever the umask.
    /// - Returns: 0, or the `errno` of the failure.
    @discardableResult
    static func makeDirectory(_ path: String) -> Int32 {
        if mkdir(path, 0o700) == 0 { return chmod(path, 0o700) == 0 ? 0 : errno }
        switch errno {
        case EEXIST: return 0
        case ENOENT:
            let parent = (path as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != path else { return ENOENT }
            let failure = makeDirectory(parent)
            return failure == 0 ? makeDirectory(path) : failure
        default: return errno
        }
    }

    /// A temporary file's name, `write-<pid>-XXXXXX`: the process id is read once (a store file
    /// is written by every cached operation, and `getpid` is a system call each time; this
    /// process never forks without `exec`, so its id does not change).
    private static let temporaryName = temporaryPrefix + "\(getpid())-XXXXXX"

    /// Creates an empty temporary file of mode 0600 in `directory` (made if missing), by
    /// default the store's `tmp/`, closed on `exec`.
    /// - Returns: its open descriptor and its path.
    static func createTemporary(
        _ layout: StoreLayout, in directory: String? = nil
    ) throws(StoreError) -> (descriptor: Int32, path: String) {
        let directory = directory ?? layout.temporary
        let template = directory + "/" + temporaryName
        for attempt in 0..<2 {
            var bytes = template.utf8CString
            let descriptor = bytes.withUnsafeMutableBufferPointer { tg_make_temporary($0.baseAddress!) }
            if descriptor >= 0 {
                guard fchmod(descriptor, 0o600) == 0 else {
                    let failure = errno
                    close(descriptor)
                    throw .writeFailed(root: layout.root, reason: errorText(failure))
                }
                return (descriptor, bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            }
            guard errno == ENOENT, attempt == 0 else { break }
            let failure = makeDirectory(directory)
            guard failure == 0 else { throw .writeFailed(root: layout.root, reason: errorText(failure)) }
        }
        throw .writeFailed(root: layout.root, reason: errorText())
    }

    /// Writes all of `bytes` to `descriptor`.
    /// - Returns: false with `errno` set on failure.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Flushes the temporary file open as `descriptor` to disk (unless `flush` is false), closes
    /// it and renames it to `path`, creating `path`'s directory if missing. On failure the
    /// temporary file is removed.
    static func commit(
        _ descriptor: Int32, _ temporary: String, to path: String, _ layout: StoreLayout, flush: Bool
    ) throws(StoreError) {
        try finish(descriptor, temporary, layout, flush: flush)
        try place(temporary, at: path, layout)
    }

    /// Flushes the temporary file open as `descriptor` to disk (unless `flush` is false) and
    /// closes it; either may report that the data could not be written (on NFS, `close` reports
    /// what the server refused). On failure the temporary file is removed.
    private static func finish(_ descriptor: Int32, _ temporary: String, _ layout: StoreLayout, flush: Bool)
        throws(StoreError)
    {
        if let failure = flushAndClose(descriptor, flush: flush) { try abandon(temporary, layout, failure) }
    }

    /// Flushes the file open as `descriptor` to disk (unless `flush` is false) and closes it.
    /// - Returns: the `errno` of the first of the two that failed, or nil.
    private static func flushAndClose(_ descriptor: Int32, flush: Bool) -> Int32? {
        var failure: Int32? = flush && fsync(descriptor) != 0 ? errno : nil
        if close(descriptor) != 0, failure == nil { failure = errno }
        return failure
    }

    /// Renames the complete temporary file `temporary` to `path`, creating `path`'s directory
    /// if missing. On failure the temporary file is removed.
    private static func place(_ temporary: String, at path: String, _ layout: StoreLayout) throws(StoreError) {
        if rename(temporary, path) == 0 { return }
        guard errno == ENOENT else { try abandon(temporary, layout, errno) }
        let made = makeDirectory(directory(of: path))
        guard made == 0 else { try abandon(temporary, layout, made) }
        guard rename(temporary, path) == 0 else { try abandon(temporary, layout, errno) }
    }

    /// Removes `temporary` and throws the write failure `code`.
    static func abandon(_ temporary: String, _ layout: StoreLayout, _ code: Int32) throws(StoreError) -> Never {
        unlink(temporary)
        throw .writeFailed(root: layout.root, reason: errorText(code))
    }

    /// Writes `data` as the file at `path` in the store: into a temporary file, flushed (unless
    /// `flush` is false), then renamed over `path`. Readers see the old file or the new one,
    /// never a partial one. The temporary file is in `tmp/`, or with `besideIt` in `path`'s
    /// own directory (a blob's or record's fan-out directory): a rename within one directory
    /// takes no lock of the whole file system, which a rename across directories does, and
    /// concurrent writers of blobs and records queued on it (bench/HISTORY.md, "round 6").
    static func writeFile(
        _ data: Data, to path: String, _ layout: StoreLayout, flush: Bool = true, besideIt: Bool = false
    ) throws(StoreError) {
        try writeFile([data], to: path, layout, flush: flush, besideIt: besideIt)
    }

    /// `writeFile(_:to:_:flush:besideIt:)` of `parts` one after the other, without joining them
    /// into one buffer first (a result's encoding is its header, then its payload).
    static func writeFile(
        _ parts: [Data], to path: String, _ layout: StoreLayout, flush: Bool = true, besideIt: Bool = false
    ) throws(StoreError) {
        try writeFile(to: path, layout, flush: flush, besideIt: besideIt) { write throws(StoreError) in
            for part in parts { try write(part) }
        }
    }

    /// `writeFile(_:to:_:flush:besideIt:)` of the parts `produce` hands to its `write` one after
    /// the other, as it makes them (a file of megabytes is never held whole in memory).
    static func writeFile(
        to path: String, _ layout: StoreLayout, flush: Bool = true, besideIt: Bool = false,
        producing produce: (_ write: (Data) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) {
        let directory = besideIt ? Self.directory(of: path) : nil
        let (descriptor, temporary) = try createTemporary(layout, in: directory)
        do throws(StoreError) {
            try produce { part throws(StoreError) in
                guard part.withUnsafeBytes({ writeAll(descriptor, $0) }) else {
                    throw .writeFailed(root: layout.root, reason: errorText())
                }
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        try commit(descriptor, temporary, to: path, layout, flush: flush)
    }

    /// Appends `data` to the file at `path` in one `write` (`O_APPEND`: appends of several
    /// processes do not interleave on a local file system), then flushes it to disk (unless
    /// `flush` is false).
    /// - Returns: false, writing nothing, when there is no file at `path`.
    static func append(_ data: Data, to path: String, _ layout: StoreLayout, flush: Bool) throws(StoreError) -> Bool {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else {
            guard errno == ENOENT else { throw .writeFailed(root: layout.root, reason: errorText()) }
            return false
        }
        guard data.withUnsafeBytes({ writeAll(descriptor, $0) }) else {
            let failure = errno
            close(descriptor)
            throw .writeFailed(root: layout.root, reason: errorText(failure))
        }
        if let failure = flushAndClose(descriptor, flush: flush) {
            throw .writeFailed(root: layout.root, reason: errorText(failure))
        }
        return true
    }

    /// The contents of the file at `path`, or nil when there is none.
    /// - Throws: `StoreError.readFailed` when it exists but cannot be read.
    static func read(_ path: String, _ layout: StoreLayout) throws(StoreError) -> Data? {
        do {
            // Unbounded: a blob is as large as the result it holds (a download's `max_bytes`).
            return try FileIO.readIfPresent(path, limit: .max)
        } catch {
            guard case .readFailed(_, let reason) = error else {
                throw .readFailed(root: layout.root, reason: "\(error)")
            }
            throw .readFailed(root: layout.root, reason: reason)
        }
    }

    /// The size from which `mapped` maps a file rather than reading it.
    static let mappingThreshold = 256 * 1024

    /// `read`, but a regular file of `mappingThreshold` bytes or more is mapped into memory
    /// (read-only, unmapped when the data goes) instead of copied: the snapshot, the plan, the
    /// stat cache and the components memory are megabytes read at every run, and copying them
    /// into fresh memory cost ten times as much as mapping them (every page of it faulted in).
    /// Only for the store's files that are replaced by a rename or only appended to, never
    /// truncated or rewritten in place, so the mapped bytes stay as they were while mapped
    /// (blobs, of any size and read once each, are read); and only on a local file system: on a
    /// network one, another machine's rename can take the file away under the mapping, and
    /// touching it then kills the process (`SIGBUS`) where a read fails cleanly.
    /// - Throws: `StoreError.readFailed` when it exists but cannot be read.
    static func mapped(_ path: String, _ layout: StoreLayout) throws(StoreError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return try read(path, layout) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= mappingThreshold,
            isOnLocalFileSystem(descriptor),
            let address = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED
        else { return try read(path, layout) }
        return Data(bytesNoCopy: address, count: Int(info.st_size), deallocator: .custom { munmap($0, $1) })
    }

    /// Whether the open file `descriptor` is on a file system of this machine's own disks or
    /// memory (ext4, XFS, Btrfs, ZFS, F2FS, tmpfs, overlayfs): not NFS, SMB, FUSE or a cluster
    /// file system, nor one unknown.
    private static func isOnLocalFileSystem(_ descriptor: Int32) -> Bool {
        #if os(Linux)
            return localFileSystems.contains(UInt32(truncatingIfNeeded: tg_file_system_type(descriptor)))
        #else
            return false
        #endif
    }

    /// The `statfs` magic numbers of `isOnLocalFileSystem`'s file systems (linux/magic.h).
    private static let localFileSystems: Set<UInt32> = [
        0xEF53, 0x5846_5342, 0x9123_683E, 0x2FC1_2FC1, 0xF2F5_2010, 0x0102_1994, 0x794C_7630,
    ]

    /// Sets the modification time of `path` to now if it is older than `seconds`.
    static func touch(_ path: String, ifOlderThan seconds: Double, modified: Double) {
        guard Double(wallClockNanoseconds()) / 1e9 - modified > seconds else { return }
        utimensat(AT_FDCWD, path, nil, 0)
    }
}
