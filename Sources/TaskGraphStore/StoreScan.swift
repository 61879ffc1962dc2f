import Dispatch
import Foundation
import TaskGraphCore

/// Everything in a store at one moment: its records (with the blobs each names, when read),
/// blobs, temporary files and other files. Taken without any lock, while other processes use
/// the store: what it finds may be gone or joined by new files a moment later. Blocking.
struct StoreScan: Sendable {
    /// A record and, when the scan read it, the blobs it names (nil: unreadable or damaged).
    struct Record: Sendable {
        var file: ListedFile
        var blobs: [String]?
    }

    /// Every record.
    var records: [Record] = []
    /// Every blob, by name (its digest's hexadecimal digits).
    var blobs: [String: ListedFile] = [:]
    /// Blobs listed by one directory's pass, before they are indexed by name.
    private var listedBlobs: [ListedFile] = []
    /// Temporary files, and anything among the blobs and records that is not named as one.
    var strays: [ListedFile] = []
    /// The bytes of the store's other files (stat cache, run log, components); the size note
    /// `usage` is not counted.
    var otherBytes: Int64 = 0

    /// The bytes of every file found.
    var totalBytes: Int64 {
        records.reduce(0) { $0 + $1.file.size } + blobs.values.reduce(0) { $0 + $1.size }
            + strays.reduce(0) { $0 + $1.size } + otherBytes
    }

    /// Lists the store of `layout`, reading every record when `readingRecords` (to know which
    /// blobs each names). The 256 directories of each kind are listed in parallel.
    static func take(_ layout: StoreLayout, readingRecords: Bool) -> StoreScan {
        let scan = Locked(StoreScan())
        let recordDirectories = fanOutDirectories(layout.records, into: scan)
        DispatchQueue.concurrentPerform(iterations: recordDirectories.count) { index in
            var part = StoreScan()
            DirectoryListing.forEach(in: recordDirectories[index]) { file, directory in
                guard file.isRegular, StoreLayout.isEntryName(file.name.utf8) else { return part.strays.append(file) }
                part.records.append(Record(file: file, blobs: readingRecords ? blobNames(file, in: directory) : nil))
            }
            scan.withLock { $0.absorb(part) }
        }
        let blobDirectories = fanOutDirectories(layout.blobs, into: scan)
        DispatchQueue.concurrentPerform(iterations: blobDirectories.count) { index in
            var part = StoreScan()
            DirectoryListing.forEach(in: blobDirectories[index]) { file, _ in
                guard file.isRegular, StoreLayout.isEntryName(file.name.utf8) else { return part.strays.append(file) }
                part.listedBlobs.append(file)
            }
            scan.withLock { $0.absorb(part) }
        }
        let temporaries = DirectoryListing.files(in: layout.temporary)
        var others = DirectoryListing.files(in: layout.pipelines)
        for path in [layout.statCache, layout.runLog] {
            if let stat = FileStat.of(path) {
                others.append(ListedFile(directory: layout.base, name: "", size: stat.size, modified: 0, isRegular: true))
            }
        }
        return scan.withLock { scan in
            scan.blobs.reserveCapacity(scan.listedBlobs.count)
            for blob in scan.listedBlobs { scan.blobs[blob.name] = blob }
            scan.listedBlobs = []
            scan.strays += temporaries
            scan.otherBytes = others.reduce(0) { $0 + $1.size }
            return scan
        }
    }

    /// The fan-out directories under `directory`; anything else there is added to the strays.
    private static func fanOutDirectories(_ directory: String, into scan: borrowing Locked<StoreScan>) -> [String] {
        var directories: [String] = []
        var strays: [ListedFile] = []
        DirectoryListing.forEach(in: directory) { file, _ in
            if !file.isRegular, file.name.utf8.count == 2 {
                directories.append(file.path)
            } else {
                strays.append(file)
            }
        }
        scan.withLock { $0.strays += strays }
        return directories
    }

    /// The names of the blobs the record `file` names, or nil when it cannot be read.
    private static func blobNames(_ file: ListedFile, in directory: Int32) -> [String]? {
        let descriptor = openat(directory, file.name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return ActionRecordCoder.blobNames(descriptor, size: file.size)
    }

    private mutating func absorb(_ part: StoreScan) {
        records += part.records
        listedBlobs += part.listedBlobs
        strays += part.strays
    }
}
