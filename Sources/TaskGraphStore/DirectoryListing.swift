import Foundation

/// Lists directories with `readdir` and `fstatat` relative to the directory's descriptor: a
/// store of 100,000 entries is listed in a fraction of a second. Blocking.
enum DirectoryListing {
    /// What listing one fan-out directory found.
    struct Part: Sendable {
        /// Its blobs or records.
        var entries: [StoreEntry] = []
        /// When its records were read: the blobs each of `entries` names, at the same index
        /// (nil: unreadable or damaged).
        var blobs: [[EntryName]?] = []
        /// Anything there not named as a blob or record.
        var strays: [ListedFile] = []
    }

    /// The blobs or records in the fan-out directory `directory` (`StoreScan.directories[index]`),
    /// reading each record when `readingRecords`.
    static func entries(of directory: String, index: Int, readingRecords: Bool) -> Part {
        var part = Part()
        forEach(in: directory) { name, info, descriptor in
            let isRegular = (info.st_mode & S_IFMT) == S_IFREG
            let stat = FileStat(info)
            guard isRegular, let entryName = EntryName(hex: name) else {
                return part.strays.append(
                    ListedFile(
                        directory: directory, name: String(cString: name), size: stat.size,
                        modified: stat.modifiedSeconds, isRegular: isRegular))
            }
            part.entries.append(StoreEntry(name: entryName, directory: index, size: stat.size, modified: stat.modifiedSeconds))
            if readingRecords { part.blobs.append(blobNames(at: name, in: descriptor, size: stat.size)) }
        }
        return part
    }

    /// The names of the blobs the record `name` in the directory open as `directory` names,
    /// or nil when it cannot be read.
    private static func blobNames(at name: UnsafePointer<CChar>, in directory: Int32, size: Int64) -> [EntryName]? {
        let descriptor = openat(directory, name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return ActionRecordCoder.blobNames(descriptor, size: size)
    }

    /// Every entry of `directory` but `.` and `..`.
    static func files(in directory: String) -> [ListedFile] {
        var files: [ListedFile] = []
        forEach(in: directory) { name, info, _ in
            let stat = FileStat(info)
            files.append(
                ListedFile(
                    directory: directory, name: String(cString: name), size: stat.size, modified: stat.modifiedSeconds,
                    isRegular: (info.st_mode & S_IFMT) == S_IFREG))
        }
        return files
    }

    /// Every entry of `directory` but `.` and `..`, its name (valid only during the call) and
    /// what `lstat` says of it, passed to `body` with the directory's open descriptor; nothing
    /// when it does not exist or cannot be read.
    private static func forEach(in directory: String, _ body: (UnsafePointer<CChar>, stat, Int32) -> Void) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        while let entry = readdir(stream) {
            withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { name in
                    let dot = CChar(UInt8(ascii: "."))
                    if name[0] == dot && (name[1] == 0 || (name[1] == dot && name[2] == 0)) { return }
                    var info = stat()
                    guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
                    body(name, info, descriptor)
                }
            }
        }
    }
}
