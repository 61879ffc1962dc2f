import Foundation

/// Lists directories with `readdir`, each file looked at relative to the directory's
/// descriptor: a store of 100,000 entries is listed in a fraction of a second. Directories are
/// opened with `StoreDirectory`: a symbolic link inside the store is never followed. Blocking.
enum DirectoryListing {
    /// What listing one fan-out directory found.
    struct Part<Item: Sendable>: Sendable {
        /// Its blobs or records.
        var items: [Item] = []
        /// Anything there not named as a blob or record.
        var strays: [ListedFile] = []
    }

    /// The blobs in the fan-out directory `directory` (`StoreScan.directories[index]`).
    static func blobs(in directory: String, index: Int, _ layout: StoreLayout) -> Part<StoreEntry> {
        var part = Part<StoreEntry>()
        forEach(in: directory, layout) { name, _, descriptor in
            guard let info = status(of: name, in: descriptor) else { return }
            guard let entry = entry(name, info, index) else {
                return part.strays.append(listedFile(name, info, directory))
            }
            part.items.append(entry)
        }
        return part
    }

    /// The records in the fan-out directory `directory` (`StoreScan.directories[index]`); with
    /// `blobs`, each is read for the blobs it names, found there. A record is opened first and
    /// its descriptor asked for its size and time, so its name is looked up once.
    static func records(
        in directory: String, index: Int, finding blobs: EntryTable?, _ layout: StoreLayout
    ) -> Part<StoreScan.Record> {
        var part = Part<StoreScan.Record>()
        forEach(in: directory, layout) { name, type, descriptor in
            if let blobs, type == DT_REG || type == DT_UNKNOWN, EntryName(hex: name) != nil,
                let record = read(name, in: descriptor, index: index, finding: blobs)
            {
                return part.items.append(record)
            }
            guard let info = status(of: name, in: descriptor) else { return }
            guard let entry = entry(name, info, index) else {
                return part.strays.append(listedFile(name, info, directory))
            }
            part.items.append(StoreScan.Record(entry: entry, blobs: nil, missesBlob: false))
        }
        return part
    }

    /// The record `name` in the directory open as `directory`, read for the blobs it names;
    /// nil when it cannot be opened or is not a regular file.
    private static func read(
        _ name: UnsafePointer<CChar>, in directory: Int32, index: Int, finding blobs: EntryTable
    ) -> StoreScan.Record? {
        let file = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, let entry = entry(name, info, index) else { return nil }
        guard let names = ActionRecordCoder.blobNames(file, size: entry.size) else {
            return StoreScan.Record(entry: entry, blobs: nil, missesBlob: false)
        }
        var found: [Int32] = []
        found.reserveCapacity(names.count)
        for name in names {
            if let position = blobs.index(of: name) { found.append(Int32(position)) }
        }
        return StoreScan.Record(entry: entry, blobs: found, missesBlob: found.count < names.count)
    }

    /// The blob or record `name` of the fan-out directory `index`, or nil when it is not a
    /// regular file named as one.
    private static func entry(_ name: UnsafePointer<CChar>, _ info: stat, _ index: Int) -> StoreEntry? {
        guard (info.st_mode & S_IFMT) == S_IFREG, let entryName = EntryName(hex: name) else { return nil }
        let stat = FileStat(info)
        return StoreEntry(name: entryName, directory: index, size: stat.size, modified: stat.modifiedSeconds)
    }

    private static func listedFile(_ name: UnsafePointer<CChar>, _ info: stat, _ directory: String) -> ListedFile {
        let stat = FileStat(info)
        return ListedFile(
            directory: directory, name: String(cString: name), size: stat.size, modified: stat.modifiedSeconds,
            type: info.st_mode & S_IFMT)
    }

    /// What `lstat` says of `name` in the directory open as `directory`, or nil when it is gone.
    private static func status(of name: UnsafePointer<CChar>, in directory: Int32) -> stat? {
        var info = stat()
        return fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// Every entry of `directory`, a directory of the store of `layout`, but `.` and `..`.
    static func files(in directory: String, _ layout: StoreLayout) -> [ListedFile] {
        var files: [ListedFile] = []
        forEach(in: directory, layout) { name, _, descriptor in
            if let info = status(of: name, in: descriptor) { files.append(listedFile(name, info, directory)) }
        }
        return files
    }

    /// Every entry of `directory` but `.` and `..`: its name (valid only during the call) and
    /// type (`DT_REG`, or `DT_UNKNOWN` where the file system does not say), passed to `body`
    /// with the directory's open descriptor; nothing when it does not exist, cannot be read or
    /// is reached through a symbolic link below the store's root.
    private static func forEach(
        in directory: String, _ layout: StoreLayout, _ body: (UnsafePointer<CChar>, Int32, Int32) -> Void
    ) {
        let opened = StoreDirectory.open(directory, layout)
        guard opened >= 0 else { return }
        guard let stream = fdopendir(opened) else {
            close(opened)
            return
        }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        while let entry = readdir(stream) {
            let type = Int32(entry.pointee.d_type)
            withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { name in
                    let dot = CChar(UInt8(ascii: "."))
                    if name[0] == dot && (name[1] == 0 || (name[1] == dot && name[2] == 0)) { return }
                    body(name, type, descriptor)
                }
            }
        }
    }
}
