import Foundation
import TaskGraphCore

extension ContentStore {
    /// Takes, before a run reads its pipeline, the `stat` of `paths` (the pipeline file, the
    /// executable, the directories of `PATH`) and of the store's own state: its records
    /// directory (gone after `cache clear`) and its removal marker (rewritten before anything
    /// else is removed).
    public func upToDateBaseline(watching paths: [String]) async -> UpToDateSnapshot.Baseline {
        let watched = paths + [layout.records, layout.removals]
        return (try? await BlockingIO.run { UpToDateSnapshot.baseline(of: watched) })
            ?? UpToDateSnapshot.Baseline(files: [:], isSettled: false)
    }

    /// From now on, notes every file whose digest is used, with its `stat` then: what
    /// `rememberUpToDate` remembers. Call before the run starts.
    public func startObservingFiles() {
        statCache.startObserving()
    }

    /// After a run after which the same command would reuse every one of its `operations`:
    /// remembers, for `invocation`, what that rests on, unless a file changed while it was read
    /// or between two uses, a path of `baseline` changed too recently to be trusted by its
    /// `stat`, or a key depended on something no `stat` shows. Returns whether it remembered.
    @discardableResult
    public func rememberUpToDate(
        invocation: ContentDigest, operations: Int, baseline: UpToDateSnapshot.Baseline
    ) async -> Bool {
        guard baseline.isSettled, let observations = statCache.observations, observations.isComplete else { return false }
        var files = baseline.files.map { UpToDateSnapshot.Entry(path: $0.key, stat: $0.value) }
        files += observations.files.compactMap { path, observed in
            baseline.files[path] == nil ? UpToDateSnapshot.Entry(path: path, stat: observed.stat, digest: observed.digest) : nil
        }
        let snapshot = UpToDateSnapshot(
            operations: operations, taken: wallClockNanoseconds(), files: files.sorted { $0.path < $1.path })
        let path = layout.snapshot(invocation)
        let layout = layout
        return (try? await BlockingIO.run { try StoreIO.writeFile(snapshot.encoded(), to: path, layout) }) != nil
    }

    /// The snapshot remembered for `invocation`, if every `stat` it rests on is unchanged:
    /// running the same command again would reuse every operation.
    public func upToDateSnapshot(invocation: ContentDigest) async -> UpToDateSnapshot? {
        let path = layout.snapshot(invocation)
        let layout = layout
        return try? await BlockingIO.run { () -> UpToDateSnapshot? in
            guard let data = try StoreIO.read(path, layout), let snapshot = UpToDateSnapshot.decode(data),
                snapshot.isCurrent(now: wallClockNanoseconds())
            else { return nil }
            return snapshot
        }
    }

    /// Notes that the key being computed depends on something no file's `stat` shows (the
    /// matches of a pattern): this run leaves no up-to-date snapshot.
    public func noteUncheckableDependency() {
        statCache.noteUncheckableDependency()
    }

    /// Rewrites the removal marker, which up-to-date snapshots watch: call before removing
    /// anything from the store. Blocking; a store that cannot be written has nothing to remove.
    static func markRemovals(_ layout: StoreLayout) {
        guard FileStat.of(layout.base) != nil else { return }
        try? StoreIO.writeFile(Data(String(wallClockNanoseconds()).utf8), to: layout.removals, layout)
    }
}
