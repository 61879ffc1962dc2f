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
        var records: [StoreEntry] = []
        var blobs: [StoreEntry] = []
        var strays: [ListedFile] = []
        /// Snapshots too old to be trusted, plans not written again for `planLifetime`.
        var outdated: [ListedFile] = []
    }

    /// A plan not written again for this long goes (a week): the command has not run on an
    /// edited pipeline file since, and may not run again.
    static let planLifetime: Double = 7 * 86_400

    /// What to remove from the store `scan` found (taken with its records read): leftovers,
    /// snapshots too old to be trusted, plans not written for `planLifetime`, damaged records, records naming a missing
    /// blob or older than `maxAge`, blobs no record
    /// names, then the least recently used records and their blobs until the size is at most
    /// the target.
    func plan(_ scan: StoreScan) -> Plan {
        var plan = Plan()
        var size = scan.totalBytes
        plan.strays = scan.strays.filter { isOld($0.modified) && $0.isRegular }
        plan.outdated = scan.snapshotsAndPlans.filter { file in
            let lifetime =
                file.directory.hasSuffix("/plans") ? Self.planLifetime : Double(UpToDateSnapshot.trustedFor) / 1e9
            return now - file.modified >= lifetime && file.isRegular
        }
        size -= (plan.strays + plan.outdated).reduce(0) { $0 + $1.size }
        // How many kept records name each blob (by its position in `scan.blobs`).
        var references = [Int32](repeating: 0, count: scan.blobs.count)
        var kept: [(modified: Double, record: Int)] = []
        kept.reserveCapacity(scan.records.count)
        for (index, record) in scan.records.enumerated() {
            let broken = record.blobs == nil || record.missesBlob
            let expired = maxAge.map { now - record.entry.modified > $0 } ?? false
            if isOld(record.entry.modified), broken || expired {
                plan.records.append(record.entry)
                size -= record.entry.size
            } else {
                kept.append((record.entry.modified, index))
                for blob in record.blobs ?? [] { references[Int(blob)] += 1 }
            }
        }
        for (index, blob) in scan.blobs.enumerated() where references[index] == 0 && isOld(blob.modified) {
            plan.blobs.append(blob)
            size -= blob.size
        }
        guard let maxSize, size > maxSize else { return plan }
        let target = targetSize ?? maxSize
        kept.sort { $0.modified < $1.modified }
        for (modified, index) in kept {
            guard size > target, isOld(modified) else { break }
            let record = scan.records[index]
            plan.records.append(record.entry)
            size -= record.entry.size
            for position in record.blobs ?? [] {
                let position = Int(position)
                references[position] -= 1
                if references[position] == 0, isOld(scan.blobs[position].modified) {
                    plan.blobs.append(scan.blobs[position])
                    size -= scan.blobs[position].size
                }
            }
        }
        return plan
    }

    /// Removes what `plan` names (found by `scan` in the store of `layout`), records first. A blob marked recent since
    /// the scan (a run stored it again) is kept.
    /// - Returns: how many records, blobs, leftovers, and snapshots and plans were removed, and
    ///   the bytes freed.
    func execute(
        _ plan: Plan, _ scan: StoreScan, _ layout: StoreLayout
    ) -> (records: Int, blobs: Int, strays: Int, outdated: Int, bytes: Int64) {
        let records = ParallelRemoval.remove(plan.records, in: scan.directories, layout)
        let blobs = ParallelRemoval.remove(plan.blobs, in: scan.directories, layout, unlessModifiedAfter: now - grace)
        let strays = ParallelRemoval.remove(plan.strays, layout)
        let outdated = ParallelRemoval.remove(plan.outdated, layout)
        return (
            records.count, blobs.count, strays.count, outdated.count,
            records.bytes + blobs.bytes + strays.bytes + outdated.bytes
        )
    }

    private func isOld(_ modified: Double) -> Bool { now - modified >= grace }
}
