import Foundation
import TaskGraphCore

extension ContentStore {
    /// Takes, before a run reads its pipeline, the `stat` of `paths` (the pipeline file, the
    /// executable, the directories of `PATH`) and of the store's own state: its removal marker,
    /// made now if missing, rewritten before anything is removed and gone after `cache clear`.
    /// (Not the records directory: the run itself changes it when it makes a fan-out directory,
    /// so the run after a first one would look every operation up.)
    public func upToDateBaseline(watching paths: [String]) async -> UpToDateSnapshot.Baseline {
        let (layout, flush) = (layout, flushesWrites)
        return
            (try? await BlockingIO.run {
                Self.makeRemovalMarker(layout, flush: flush)
                return UpToDateSnapshot.baseline(of: paths, markers: [layout.removals])
            }) ?? UpToDateSnapshot.Baseline(files: [:], isSettled: false)
    }

    /// From now on, notes every file whose digest is used, with its `stat` then: what
    /// `rememberUpToDate` remembers. Call before the run starts.
    public func startObservingFiles() {
        statCache.startObserving()
    }

    /// After a run after which the same command would reuse every one of its operations
    /// (`operations`, by id): remembers, for `invocation`, what that rests on: `baseline`, the
    /// files the run used, and the entries of `previous` (the snapshot the run started from) for
    /// the files of the operations it reused from it (`reused`; unchanged when the run started).
    /// Such a snapshot counts as taken when `previous` was: the records of operations reused
    /// that way were not marked used, so the chain ends an hour after the last run that looked
    /// every operation up. `checked` is when `previous`'s paths were found current
    /// (`upToDateSnapshot(invocation:)`). Nothing is remembered when a file
    /// changed while it was read or between two uses, a path of `baseline` changed too recently
    /// to be trusted by its `stat`, a key depended on something no `stat` shows, or an
    /// operation's file is in none of these. Returns whether it remembered.
    @discardableResult
    public func rememberUpToDate(
        invocation: ContentDigest, operations: [String: KnownResults.Entry], baseline: UpToDateSnapshot.Baseline,
        previous: UpToDateSnapshot? = nil, reused: [String] = [], checked: Int64 = .min
    ) async -> Bool {
        guard baseline.isSettled, let observations = statCache.observations, observations.isComplete else {
            return false
        }
        var taken = wallClockNanoseconds()
        if let previous, !reused.isEmpty { taken = min(taken, previous.taken) }
        guard
            let snapshot = UpToDateSnapshot.after(
                operations, observed: observations.files, baseline: baseline, previous: previous, reused: reused,
                taken: taken,
                checked: checked)
        else { return false }
        let path = layout.snapshot(invocation)
        let layout = layout
        // Flushed even by a store that flushes nothing else: a snapshot that a crash left with
        // zeros in it could still decode, and a run would trust it (docs/cache.md, "Writing").
        return (try? await BlockingIO.run { try StoreIO.writeFile(snapshot.encodedParts(), to: path, layout) }) != nil
    }

    /// The snapshot remembered for `invocation`, unless it is too old to trust, the paths it
    /// rests on that changed since (every one checked) and when the check started: when none
    /// changed, running the same command again would reuse every operation. Then the files it
    /// kept with a digest (changed just before it was taken) that are now old enough to be kept
    /// by their `stat` alone are so kept from now on: the snapshot is written again with them,
    /// so the next check hashes nothing.
    public func upToDateSnapshot(invocation: ContentDigest) async
        -> (snapshot: UpToDateSnapshot, changed: Set<String>, checked: Int64)?
    {
        let path = layout.snapshot(invocation)
        let layout = layout
        return try? await BlockingIO.run { () -> (snapshot: UpToDateSnapshot, changed: Set<String>, checked: Int64)? in
            guard let data = try StoreIO.mapped(path, layout), let snapshot = UpToDateSnapshot.decode(data) else {
                return nil
            }
            let checked = wallClockNanoseconds()
            guard snapshot.isTrusted(now: checked) else { return nil }
            let changed = snapshot.changedPaths()
            if changed.isEmpty, let settled = snapshot.settled(checkedAt: checked) {
                // Flushed, as every snapshot is (`rememberUpToDate`); not written is no harm.
                try? StoreIO.writeFile(settled.encodedParts(), to: path, layout)
            }
            return (snapshot, changed, checked)
        }
    }

    /// What a run can start from after some of the paths `snapshot` rests on changed
    /// (`changed`, found by `upToDateSnapshot(invocation:)`), or nil when one of them may be
    /// among `watched` (the pipeline file, the executable, `PATH`'s directories) or the
    /// store's own state (a record may have been removed): then every operation is looked up.
    public func knownResults(from snapshot: UpToDateSnapshot, changed: Set<String>, watched: [String]) -> KnownResults?
    {
        guard snapshot.hasUnchanged(watched + [layout.removals], changed: changed) else { return nil }
        let files = snapshot.files
        return KnownResults(
            entries: snapshot.operationEntries, changedAtStart: changed,
            changedOperations: snapshot.operations(touching: changed)
        ) { path in
            UpToDateSnapshot.index(of: path, in: files).map { files[$0].isCurrent() } ?? false
        }
    }

    /// Notes that the key being computed depends on something no file's `stat` shows (the
    /// matches of a pattern): this run leaves no up-to-date snapshot.
    public func noteUncheckableDependency() {
        statCache.noteUncheckableDependency()
    }

    /// Runs `removal`, which removes entries of the store, with the removal marker rewritten
    /// before and again after it: a run whose baseline saw the marker while entries were being
    /// removed finds it changed afterwards. Blocking.
    static func whileRemoving<Result>(_ layout: StoreLayout, _ removal: () throws -> Result) rethrows -> Result {
        markRemovals(layout)
        defer { markRemovals(layout) }
        return try removal()
    }

    /// Rewrites the removal marker, which up-to-date snapshots watch. It is only ever replaced
    /// by a rename, and its modification time is set to the nanosecond (not the file system's
    /// clock tick), so no two markers share a `stat`, however soon one follows another and even
    /// when one gets the other's inode number. Flushed unless `flush` is false. Blocking; a
    /// store that cannot be written has nothing to remove.
    private static func markRemovals(_ layout: StoreLayout, flush: Bool = true) {
        guard FileStat.of(layout.base) != nil else { return }
        let now = wallClockNanoseconds()
        guard (try? StoreIO.writeFile(Data(String(now).utf8), to: layout.removals, layout, flush: flush)) != nil
        else { return }
        let time = timespec(tv_sec: Int(now / 1_000_000_000), tv_nsec: Int(now % 1_000_000_000))
        _ = [time, time].withUnsafeBufferPointer { utimensat(AT_FDCWD, layout.removals, $0.baseAddress, 0) }
    }

    /// Makes the removal marker, and the store's directory, unless the marker exists: a
    /// snapshot then sees `cache clear` as the marker gone. Flushed only when `flush` (a store
    /// that flushes its writes): only its `stat` is read, and one a crash changed or removed
    /// matches no snapshot (those runs look every operation up). Blocking; a store that cannot
    /// be written is left as it is.
    static func makeRemovalMarker(_ layout: StoreLayout, flush: Bool) {
        guard FileStat.of(layout.removals) == nil, StoreIO.makeDirectory(layout.base) == 0 else { return }
        markRemovals(layout, flush: flush)
    }
}
