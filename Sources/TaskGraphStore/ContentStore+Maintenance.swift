import Dispatch
import Foundation
import TaskGraphCore

extension ContentStore {
    /// How long the size `evictIfNeeded` estimates is trusted before the store is listed
    /// again: 1 day.
    static let usageTrustedFor: Double = 86_400
    /// A run that finds the store above its bound evicts down to this share of it, so that the
    /// next runs do not each evict a little: 90 %.
    static let evictionTarget = 0.9

    /// The store's location, size, counts and recent runs.
    /// - Throws: `StoreError.readFailed` when the root is not a directory (a store not made yet
    ///   is empty).
    public func status() async throws -> StoreStatus {
        let layout = layout
        let scan = try await BlockingIO.run { () throws(StoreError) -> StoreScan in
            try Self.checkRoot(layout)
            return StoreScan.take(layout, readingRecords: false)
        }
        return StoreStatus(
            root: root, size: scan.totalBytes, records: scan.records.count, blobs: scan.blobs.count,
            recentRuns: await recentRuns())
    }

    /// Keeps the store within `maxSize` bytes, cheaply: called after every run. The size
    /// measured by the last full collection (`usage`), plus what this process added since, is
    /// trusted for a day; only when it exceeds `maxSize`, or is older, is the store listed and
    /// the least recently used entries evicted down to 90 % of `maxSize`. A store that did not
    /// exist before this process (`isNew`: a fresh machine's) holds only what it added: that is
    /// its measured size, without listing it.
    /// - Throws: `StoreError.writeFailed` when the estimate cannot be saved.
    public func evictIfNeeded(maxSize: Int64, isNew: Bool = false) async throws -> GarbageCollectionReport {
        let added = bytesAdded.withLock { added in
            defer { added = 0 }
            return added
        }
        let (layout, flush) = (layout, flushesWrites)
        let estimate = try await BlockingIO.run { () throws -> GarbageCollectionReport? in
            let now = Double(wallClockNanoseconds()) / 1e9
            let saved = StoreUsage.read(layout) ?? (isNew ? StoreUsage(bytes: 0, measured: now) : nil)
            guard let usage = saved, now - usage.measured < Self.usageTrustedFor,
                usage.bytes + added <= maxSize
            else { return nil }
            if added > 0 {
                try StoreUsage(bytes: usage.bytes + added, measured: usage.measured).write(layout, flush: flush)
            }
            return GarbageCollectionReport(
                scanned: false, sizeBefore: usage.bytes + added, sizeAfter: usage.bytes + added)
        }
        if let estimate { return estimate }
        return try await collectGarbage(
            maxSize: maxSize, targetSize: Int64(Double(maxSize) * Self.evictionTarget), maxAge: nil)
    }

    /// Lists the store and removes leftovers of interrupted writes, damaged records, records
    /// naming a missing blob, records not used for `maxAge`, blobs no record names, then, while
    /// it is above `maxSize` bytes, the least recently used records and their blobs until it is
    /// at or below `targetSize` (default `maxSize`). Nothing younger than `gracePeriod` goes.
    /// - Throws: `StoreError.writeFailed` when the measured size cannot be saved.
    public func collectGarbage(
        maxSize: Int64?, targetSize: Int64? = nil, maxAge: Duration?
    ) async throws -> GarbageCollectionReport {
        let layout = layout
        let maxAgeSeconds = maxAge.map(\.inSeconds)
        return try await BlockingIO.run {
            try Self.checkRoot(layout)
            let scan = StoreScan.take(layout, readingRecords: true)
            let now = Double(wallClockNanoseconds()) / 1e9
            let collector = GarbageCollector(
                maxSize: maxSize, targetSize: targetSize, maxAge: maxAgeSeconds, now: now, grace: Self.gracePeriod)
            let plan = collector.plan(scan)
            let removed =
                plan.records.isEmpty && plan.blobs.isEmpty
                ? collector.execute(plan, scan, layout)
                : Self.whileRemoving(layout) { collector.execute(plan, scan, layout) }
            let report = GarbageCollectionReport(
                scanned: true, sizeBefore: scan.totalBytes, sizeAfter: scan.totalBytes - removed.bytes,
                recordsRemoved: removed.records, blobsRemoved: removed.blobs, temporariesRemoved: removed.strays,
                outdatedRemoved: removed.outdated,
                recordsLeft: scan.records.count - removed.records, blobsLeft: scan.blobs.count - removed.blobs,
                linksSkipped: scan.links)
            if FileStat.of(layout.base) != nil {
                try StoreUsage(bytes: report.sizeAfter, measured: now).write(layout)
            }
            return report
        }
    }

    /// Hashes every blob, removing those that do not match their name, then removes records
    /// that are damaged or name a missing blob. Blobs are hashed on all cores. A symbolic link
    /// where the store has a directory is not followed (`VerificationReport.linksSkipped`).
    public func verify() async throws -> VerificationReport {
        let layout = layout
        return try await BlockingIO.run {
            try Self.checkRoot(layout)
            let scan = StoreScan.take(layout, readingRecords: true)
            let (blobsRemoved, recordsRemoved) = Self.whileRemoving(layout) { () -> (Int, Int) in
                let corrupt = Locked(Set<Int32>())
                DispatchQueue.concurrentPerform(iterations: scan.blobs.count) { index in
                    let blob = scan.blobs[index]
                    guard let hashed = try? FileHasher.hash(scan.path(of: blob)), EntryName(hashed.digest) != blob.name
                    else { return }
                    corrupt.withLock { _ = $0.insert(Int32(index)) }
                }
                let removed = corrupt.withLock { $0 }
                let blobs = ParallelRemoval.remove(removed.map { scan.blobs[Int($0)] }, in: scan.directories, layout)
                let records = scan.records.filter { record in
                    record.missesBlob || !(record.blobs?.allSatisfy { !removed.contains($0) } ?? false)
                }
                return (blobs.count, ParallelRemoval.remove(records.map(\.entry), in: scan.directories, layout).count)
            }
            return VerificationReport(
                blobsChecked: scan.blobs.count, corruptBlobsRemoved: blobsRemoved, recordsChecked: scan.records.count,
                recordsRemoved: recordsRemoved, linksSkipped: scan.links)
        }
    }

    /// Removes everything in the store, records first, whatever its age; runs beside it miss.
    /// - Returns: the records and blobs there were.
    /// - Throws: `StoreError.writeFailed` when something cannot be removed.
    public func clear() async throws -> (records: Int, blobs: Int) {
        let layout = layout
        return try await BlockingIO.run { () throws -> (records: Int, blobs: Int) in
            try Self.checkRoot(layout)
            let scan = StoreScan.take(layout, readingRecords: false)
            // The removal marker goes with the rest (and is made again by the next run's baseline).
            try Self.whileRemoving(layout) {
                for directory in [layout.records, layout.blobs, layout.base] where FileStat.of(directory) != nil {
                    do {
                        try FileManager.default.removeItem(atPath: directory)
                    } catch {
                        throw StoreError.writeFailed(root: layout.root, reason: Self.reason(of: error))
                    }
                }
            }
            return (scan.records.count, scan.blobs.count)
        }
    }

    /// Throws `StoreError.readFailed` unless the store's root is a directory or does not exist
    /// yet (an empty store): a file named as the store is no store to report on. Blocking.
    static func checkRoot(_ layout: StoreLayout) throws(StoreError) {
        var info = stat()
        guard stat(layout.root, &info) == 0 else {
            if errno == ENOENT { return }
            throw .readFailed(root: layout.root, reason: StoreIO.errorText())
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .readFailed(root: layout.root, reason: StoreIO.errorText(ENOTDIR))
        }
    }

    /// The system's reason inside a Foundation error, e.g. `Permission denied`.
    private static func reason(of error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain { return StoreIO.errorText(Int32(underlying.code)) }
        return error.localizedDescription
    }
}
