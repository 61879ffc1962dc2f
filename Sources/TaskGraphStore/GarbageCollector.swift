import Foundation

/// Decides what a collection removes from a scan, then removes it, safely beside running
/// builds: records first, then the blobs no remaining record names. A run beside it can at worst
/// miss (a record whose blob just went is ignored; a blob is checked against its digest before
/// use), never reuse a wrong result. Nothing younger than the grace period is removed. Blocking.
struct GarbageCollector {
    /// Evict least recently used records while the store is above this many bytes…
    var maxSize: Int64?
    /// …until it is at or below this many (default: `maxSize`).
    var targetSize: Int64?
    /// Remove records not used for this many seconds.
    var maxAge: Double?
    /// Now, in seconds since 1970.
    var now: Double
    /// Files younger than this many seconds are kept.
    var grace: Double

    /// What to remove.
    struct Plan {
        var records: [ListedFile] = []
        var blobs: [ListedFile] = []
        var strays: [ListedFile] = []
    }

    /// What to remove from the store `scan` found (taken with its records read): leftovers,
    /// damaged records, records naming a missing blob or older than `maxAge`, blobs no record
    /// names, then the least recently used records and their blobs until the size is at most
    /// the target.
    func plan(_ scan: StoreScan) -> Plan {
        var plan = Plan()
        var size = scan.totalBytes
        plan.strays = scan.strays.filter { isOld($0) && $0.isRegular }
        size -= plan.strays.reduce(0) { $0 + $1.size }
        var kept: [StoreScan.Record] = []
        for record in scan.records {
            let broken = record.blobs.map { $0.contains { scan.blobs[$0] == nil } } ?? true
            let expired = maxAge.map { now - record.file.modified > $0 } ?? false
            if isOld(record.file), broken || expired {
                plan.records.append(record.file)
                size -= record.file.size
            } else {
                kept.append(record)
            }
        }
        var references: [String: Int] = [:]
        for record in kept {
            for blob in record.blobs ?? [] { references[blob, default: 0] += 1 }
        }
        for (name, blob) in scan.blobs where references[name] == nil && isOld(blob) {
            plan.blobs.append(blob)
            size -= blob.size
        }
        guard let maxSize, size > maxSize else { return plan }
        let target = targetSize ?? maxSize
        for record in kept.sorted(by: { $0.file.modified < $1.file.modified }) {
            guard size > target, isOld(record.file) else { break }
            plan.records.append(record.file)
            size -= record.file.size
            for name in record.blobs ?? [] {
                references[name, default: 1] -= 1
                if references[name] == 0, let blob = scan.blobs[name], isOld(blob) {
                    plan.blobs.append(blob)
                    size -= blob.size
                }
            }
        }
        return plan
    }

    /// Removes what `plan` names, records first. A blob marked recent since the scan (a run
    /// stored it again) is kept.
    /// - Returns: how many records, blobs and leftovers were removed and the bytes freed.
    func execute(_ plan: Plan) -> (records: Int, blobs: Int, strays: Int, bytes: Int64) {
        var bytes: Int64 = 0
        let records = removeAll(plan.records, bytes: &bytes)
        let (now, grace) = (now, grace)
        let blobs = removeAll(plan.blobs, bytes: &bytes) { path in
            FileStat.of(path).map { now - $0.modifiedSeconds >= grace } ?? false
        }
        let strays = removeAll(plan.strays, bytes: &bytes)
        return (records, blobs, strays, bytes)
    }

    private func removeAll(
        _ files: [ListedFile], bytes: inout Int64, if condition: @escaping @Sendable (String) -> Bool = { _ in true }
    ) -> Int {
        var removed = 0
        for (file, gone) in zip(files, ParallelRemoval.remove(files, if: condition)) where gone {
            removed += 1
            bytes += file.size
        }
        return removed
    }

    private func isOld(_ file: ListedFile) -> Bool { now - file.modified >= grace }
}
