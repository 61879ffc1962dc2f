import Foundation
import TaskGraphCore

/// Everything in a store at one moment: its records (with the blobs each names, when read),
/// blobs, temporary files and other files. Taken without any lock, while other processes use
/// the store: what it finds may be gone or joined by new files a moment later. Blocking.
struct StoreScan: Sendable {
    /// A record and, when the scan read it, the blobs it names.
    struct Record: Sendable {
        var entry: StoreEntry
        /// The blobs it names that the scan found, as positions in `StoreScan.blobs`, each
        /// once; nil when it was not read, or is unreadable or damaged.
        var blobs: [Int32]?
        /// Whether it names a blob the scan did not find.
        var missesBlob: Bool
    }

    /// The fan-out directories listed (`records/ab`, `blobs/cd`), which `StoreEntry.directory`
    /// indexes.
    var directories: [String] = []
    /// Every record.
    var records: [Record] = []
    /// Every blob.
    var blobs: [StoreEntry] = []
    /// Temporary files, and anything among the blobs and records that is not named as one.
    var strays: [ListedFile] = []
    /// Up-to-date snapshots and plans, one of each per command at most.
    var snapshotsAndPlans: [ListedFile] = []
    /// The bytes of the store's other files (stat cache, run log, components); the size note
    /// `usage` is not counted.
    var otherBytes: Int64 = 0
    /// Symbolic links found where the store has directories (`records/ab`, `tmp`): not
    /// followed, nothing under them listed or removed.
    var links: [String] = []

    /// The bytes of every file found.
    var totalBytes: Int64 {
        records.reduce(0) { $0 + $1.entry.size } + blobs.reduce(0) { $0 + $1.size }
            + (strays + snapshotsAndPlans).reduce(0) { $0 + $1.size } + otherBytes
    }

    /// The path of `entry`.
    func path(of entry: StoreEntry) -> String {
        entry.name.withCString { directories[entry.directory] + "/" + String(cString: $0) }
    }

    /// Lists the store of `layout`, reading every record when `readingRecords` (to know which
    /// blobs each names). The fan-out directories (256 of each kind) are listed on
    /// `ParallelBands.forEach` threads, each file looked at relative to its directory's descriptor, and
    /// no string is made for an entry: the blobs first, then the records, each record's blobs
    /// found by name among them (`EntryTable`) as it is read.
    static func take(_ layout: StoreLayout, readingRecords: Bool) -> StoreScan {
        var scan = StoreScan()
        scan.links = [
            layout.base, layout.records, layout.blobs, layout.temporary, layout.snapshots, layout.plans,
            layout.pipelines,
        ].filter(StoreDirectory.isLink)
        let recordDirectories = listFanOut(layout.records, layout, into: &scan)
        scan.directories = recordDirectories + listFanOut(layout.blobs, layout, into: &scan)
        let directories = scan.directories
        let blobParts = list(directories.indices.dropFirst(recordDirectories.count)) {
            DirectoryListing.blobs(in: directories[$0], index: $0, layout)
        }
        scan.blobs.reserveCapacity(blobParts.reduce(0) { $0 + $1.items.count })
        for part in blobParts {
            scan.blobs += part.items
            scan.strays += part.strays
        }
        let table = readingRecords ? EntryTable(scan.blobs.map(\.name)) : nil
        let recordParts = list(recordDirectories.indices) {
            DirectoryListing.records(in: directories[$0], index: $0, finding: table, layout)
        }
        scan.records.reserveCapacity(recordParts.reduce(0) { $0 + $1.items.count })
        for part in recordParts {
            scan.records += part.items
            scan.strays += part.strays
        }
        scan.strays += DirectoryListing.files(in: layout.temporary, layout)
        scan.snapshotsAndPlans =
            DirectoryListing.files(in: layout.snapshots, layout)
            + DirectoryListing.files(in: layout.plans, layout)
        scan.otherBytes = DirectoryListing.files(in: layout.pipelines, layout).reduce(0) { $0 + $1.size }
        for path in [layout.statCache, layout.runLog] { scan.otherBytes += FileStat.of(path)?.size ?? 0 }
        return scan
    }

    /// Lists each of `directories` (indices into `StoreScan.directories`) with `listing` on
    /// `ParallelBands.forEach` threads.
    private static func list<Item>(
        _ directories: Range<Int>, _ listing: @escaping @Sendable (Int) -> DirectoryListing.Part<Item>
    ) -> [DirectoryListing.Part<Item>] {
        let parts = Locked([DirectoryListing.Part<Item>](repeating: .init(), count: directories.count))
        ParallelBands.forEach(directories.count) { offset in
            let part = listing(directories.lowerBound + offset)
            parts.withLock { $0[offset] = part }
        }
        return parts.withLock { $0 }
    }

    /// The fan-out directories under `directory`; a symbolic link there is added to the
    /// scan's `links`, anything else to its `strays`.
    private static func listFanOut(_ directory: String, _ layout: StoreLayout, into scan: inout StoreScan) -> [String] {
        var directories: [String] = []
        for file in DirectoryListing.files(in: directory, layout) {
            if file.type == S_IFDIR, file.name.utf8.count == 2 {
                directories.append(file.path)
            } else if file.type == S_IFLNK {
                scan.links.append(file.path)
            } else {
                scan.strays.append(file)
            }
        }
        return directories
    }
}
