import Foundation

/// What `stat` says about a file that tells whether its contents may have changed: its size,
/// modification and change times (nanoseconds since 1970), inode and device.
struct FileStat: Hashable, Sendable {
    var size: Int64
    var modified: Int64
    var changed: Int64
    var inode: UInt64
    var device: UInt64

    /// Reads the fields of `info`.
    init(_ info: stat) {
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
    }

    /// Makes one from its stored fields.
    init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
        self.device = device
    }

    /// The file at `path` (following symbolic links), or nil with `errno` set.
    static func of(_ path: String) -> FileStat? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStat(info)
    }

    /// The file open as `descriptor`, or nil with `errno` set.
    static func of(descriptor: Int32) -> FileStat? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileStat(info)
    }

    /// The modification time in seconds since 1970.
    var modifiedSeconds: Double { Double(modified) / 1e9 }
}

/// The current time in nanoseconds since 1970, from the clock file times come from.
func wallClockNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
