import Foundation
import TaskGraphCore

/// Removes many blobs or records at once: each fan-out directory's by one `ParallelBands.forEach`
/// thread, through the directory's descriptor (`unlinkat`, no path looked up again), so that
/// no two threads wait on the same directory while removals in different ones overlap.
/// Nothing is flushed: a removal needs no durability, a run that still finds the file is told
/// the same as before it. Directories are opened with `StoreDirectory`: nothing is removed
/// through a symbolic link, nor outside the store. Blocking.
enum ParallelRemoval {
    /// The threads removing files at once: many more than cores, each removal may wait on the
    /// disk. On a file system without a journal mounted with `discard`, every unlink of a file
    /// with blocks waits for its discard: 150,000 such files took 11 s on 2 threads, 6-7 s on
    /// 16 and 4-5 s on 64; 128 and 256 were no faster (bench/gc-floor.c, bench/README.md).
    static let threads = 64

    /// Removes `entries`, found in `directories` of the store of `layout`; with
    /// `unlessModifiedAfter`, those whose modification time has moved past it since (a run
    /// marked the blob recent) are kept.
    /// - Returns: how many were removed and their bytes.
    static func remove(
        _ entries: [StoreEntry], in directories: [String], _ layout: StoreLayout,
        unlessModifiedAfter cutoff: Double? = nil
    ) -> (count: Int, bytes: Int64) {
        var byDirectory = [[StoreEntry]](repeating: [], count: directories.count)
        for entry in entries { byDirectory[entry.directory].append(entry) }
        let groups = byDirectory.filter { !$0.isEmpty }
        let removed = Locked((count: 0, bytes: Int64(0)))
        ParallelBands.forEach(groups.count, threads: threads) { index in
            let group = groups[index]
            let directory = StoreDirectory.open(directories[group[0].directory], layout)
            guard directory >= 0 else { return }
            defer { close(directory) }
            var count = 0
            var bytes: Int64 = 0
            for entry in group where entry.name.withCString({ remove($0, in: directory, unlessModifiedAfter: cutoff) })
            {
                count += 1
                bytes += entry.size
            }
            removed.withLock { removed in
                removed.count += count
                removed.bytes += bytes
            }
        }
        return removed.withLock { $0 }
    }

    /// Removes `files`, listed in directories of the store of `layout`.
    /// - Returns: how many were removed and their bytes.
    static func remove(_ files: [ListedFile], _ layout: StoreLayout) -> (count: Int, bytes: Int64) {
        var removed = (count: 0, bytes: Int64(0))
        for (path, listed) in Dictionary(grouping: files, by: \.directory) {
            let directory = StoreDirectory.open(path, layout)
            guard directory >= 0 else { continue }
            defer { close(directory) }
            for file in listed where unlinkat(directory, file.name, 0) == 0 {
                removed.count += 1
                removed.bytes += file.size
            }
        }
        return removed
    }

    private static func remove(_ name: UnsafePointer<CChar>, in directory: Int32, unlessModifiedAfter cutoff: Double?)
        -> Bool
    {
        if let cutoff {
            var info = stat()
            guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0, FileStat(info).modifiedSeconds <= cutoff
            else { return false }
        }
        return unlinkat(directory, name, 0) == 0
    }
}
