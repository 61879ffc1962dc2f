import Foundation

/// Lists directories with `readdir` and `fstatat`: a store of 100,000 entries is listed in
/// a fraction of a second. Blocking.
enum DirectoryListing {
    /// Every entry of `directory` but `.` and `..`, with what `lstat` says of it, passed to
    /// `body` with the directory's open descriptor; nothing when it does not exist or cannot
    /// be read.
    static func forEach(in directory: String, _ body: (ListedFile, Int32) -> Void) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let stat = FileStat(info)
            body(
                ListedFile(
                    directory: directory, name: name, size: stat.size, modified: stat.modifiedSeconds,
                    isRegular: (info.st_mode & S_IFMT) == S_IFREG),
                descriptor)
        }
    }

    /// Every entry of `directory` but `.` and `..`.
    static func files(in directory: String) -> [ListedFile] {
        var files: [ListedFile] = []
        forEach(in: directory) { file, _ in files.append(file) }
        return files
    }
}
