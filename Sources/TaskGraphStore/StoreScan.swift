import Foundation
import TaskGraphCore

/// Everything in a store at one moment: its records (with the blobs each names, when read),
/// blobs, temporary files and other files. Taken without any lock, while other processes use
/// the store: what it finds may be gone or joined by new files a moment later. Blocking.
struct StoreScan: Sendable {
    /// A record and, when the scan read it, the blobs it names (nil: unreadable or damaged).
    struct Record: Sendable {
        var entry: StoreEntry
        var blobs: [EntryName]?
    }

    /// The fan-out directories listed (`records/ab`, `blobs/cd`), which `StoreEntry.directory`
    /// indexes.
    var directories: [String] = []
    /// Every record.
    var records: [Record] = []
    /// Every blob, by name.
    var blobs: [EntryName: StoreEntry] = [:]
    /// Temporary files, and anything among the blobs and records that is not named as one.
    var strays: [ListedFile] = []
    /// The bytes of the store's other files (stat cache, run log, components); the size note
    /// `usage` is not counted.
    var otherBytes: Int64 = 0

    /// The bytes of every file found.
    var totalBytes: Int64 {
        records.reduce(0) { $0 + $1.entry.size } + blobs.values.reduce(0) { $0 + $1.size }
            + strays.reduce(0) { $0 + $1.size } + otherBytes
    }

    /// The path of `entry`.
    func path(of entry: StoreEntry) -> String {
        entry.name.withCString { directories[entry.directory] + "/" + String(cString: $0) }
    }

    /// Lists the store of `layout`, reading every record when `readingRecords` (to know which
    /// blobs each names). The fan-out directories (256 of each kind) are listed on
    /// `ParallelWork` threads, each file `fstatat` and each record opened relative to its
    /// directory's descriptor, and no string is made for an entry.
    static func take(_ layout: StoreLayout, readingRecords: Bool) -> StoreScan {
        var scan = StoreScan()
        let recordDirectories = listFanOut(layout.records, strays: &scan.strays)
        scan.directories = recordDirectories + listFanOut(layout.blobs, strays: &scan.strays)
        let directories = scan.directories
        let parts = Locked([DirectoryListing.Part](repeating: .init(), count: directories.count))
        ParallelWork.forEach(directories.count) { index in
            let isRecords = index < recordDirectories.count
            let part = DirectoryListing.entries(
                of: directories[index], index: index, readingRecords: isRecords && readingRecords)
            parts.withLock { $0[index] = part }
        }
        parts.withLock { parts in
            scan.records.reserveCapacity(parts.prefix(recordDirectories.count).reduce(0) { $0 + $1.entries.count })
            scan.blobs.reserveCapacity(parts.dropFirst(recordDirectories.count).reduce(0) { $0 + $1.entries.count })
            for (index, part) in parts.enumerated() {
                scan.strays += part.strays
                if index < recordDirectories.count {
                    for (offset, entry) in part.entries.enumerated() {
                        scan.records.append(Record(entry: entry, blobs: readingRecords ? part.blobs[offset] : nil))
                    }
                } else {
                    for entry in part.entries { scan.blobs[entry.name] = entry }
                }
            }
        }
        scan.strays += DirectoryListing.files(in: layout.temporary)
        scan.otherBytes = DirectoryListing.files(in: layout.pipelines).reduce(0) { $0 + $1.size }
        for path in [layout.statCache, layout.runLog] { scan.otherBytes += FileStat.of(path)?.size ?? 0 }
        return scan
    }

    /// The fan-out directories under `directory`; anything else there is added to `strays`.
    private static func listFanOut(_ directory: String, strays: inout [ListedFile]) -> [String] {
        var directories: [String] = []
        for file in DirectoryListing.files(in: directory) {
            if !file.isRegular, file.name.utf8.count == 2 {
                directories.append(file.path)
            } else {
                strays.append(file)
            }
        }
        return directories
    }
}
