import Foundation

/// What a traced program and its children did to files, read from the records the tracer
/// library appended (format in Sources/CFileAccessTrace/include/FileAccessTrace.h): the files it
/// read before writing them, and the files it wrote that still stand when it ends (a temporary
/// file it removed or renamed away is not among them).
struct FileAccessTrace: Equatable, Sendable {
    /// One access, as recorded.
    enum Access: UInt8 {
        case read = 0x72 // r
        case write = 0x77 // w
        case removal = 0x64 // d
    }

    /// Files read while they held content the program did not write itself.
    private(set) var read: Set<String> = []
    /// Files written, created or renamed into place, and not removed after.
    private(set) var written: Set<String> = []

    /// Replays `records` in order. Each path goes through `canonical` once (the same file named
    /// two ways counts as one); records of an unknown kind or without an absolute path are skipped.
    init(records: Data, canonical: (String) -> String) {
        var canonicalPaths: [String: String] = [:]
        var everWritten: Set<String> = []
        for record in records.split(separator: 0, omittingEmptySubsequences: true) {
            guard let access = Access(rawValue: record[record.startIndex]),
                record.count > 1, record[record.startIndex + 1] == UInt8(ascii: "/")
            else { continue }
            let raw = String(decoding: record.dropFirst(), as: UTF8.self)
            let path: String
            if let known = canonicalPaths[raw] {
                path = known
            } else {
                path = canonical(raw)
                canonicalPaths[raw] = path
            }
            switch access {
            case .read:
                if !everWritten.contains(path) { read.insert(path) }
            case .write:
                everWritten.insert(path)
                written.insert(path)
            case .removal:
                written.remove(path)
            }
        }
    }

    /// The path of an existing file with its symbolic links resolved (`realpath`); for one that is
    /// gone, its resolved directory and its name; otherwise `path` with `.` and `..` applied.
    /// Blocks: call it on a blocking thread.
    static func canonicalPath(_ path: String) -> String {
        if let resolved = realPath(path) { return resolved }
        let normalized = PathResolver.normalized(path)
        guard let slash = normalized.lastIndex(of: "/"), slash != normalized.startIndex,
            let directory = realPath(String(normalized[..<slash]))
        else { return normalized }
        return directory + normalized[slash...]
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
