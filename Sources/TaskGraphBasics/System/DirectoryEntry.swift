import Foundation

/// One entry of a directory as `readdir` lists it, with the type the listing tells, so that
/// matching 50,000 names against a pattern needs no `stat` of each. Blocking.
struct DirectoryEntry {
    /// Its name.
    var name: String
    /// What it is, as the listing says (the entry itself: a listed directory or regular file is
    /// no link); nil for a symbolic link, or where the file system does not say (`DT_UNKNOWN`):
    /// only a `stat` tells then.
    var kind: FileKind?

    /// Every entry of the directory at `path` but `.` and `..`, in no particular order; none
    /// when it is not a directory that can be read.
    static func list(_ path: String) -> [DirectoryEntry] {
        guard let stream = opendir(path) else { return [] }
        defer { closedir(stream) }
        var entries: [DirectoryEntry] = []
        while let entry = readdir(stream) {
            let kind = kind(Int32(entry.pointee.d_type))
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { entries.append(DirectoryEntry(name: name, kind: kind)) }
        }
        return entries
    }

    /// What a `d_type` says.
    private static func kind(_ type: Int32) -> FileKind? {
        switch type {
        case Int32(DT_DIR): .directory
        case Int32(DT_REG): .regular
        case Int32(DT_LNK), Int32(DT_UNKNOWN): nil
        default: .other
        }
    }
}
