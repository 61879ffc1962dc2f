import TaskGraphCore

extension UpToDateSnapshot {
    /// The snapshot after a run that would now reuse every one of `operations` (by id), taken
    /// at `taken`: the files the run used as `observed`, the paths of `baseline`, and the
    /// entries of `previous` (the snapshot the run started from) for the files of the operations
    /// it reused from it (`reused`), merged in path order. Nil when a file one of those rested
    /// on was used with another `stat` (an operation that ran rewrote it), or when an
    /// operation's file is in none of these. Works by position in `previous`: a run where a few
    /// operations ran hashes few paths.
    ///
    /// `previous`'s paths were all found current at `checked` (`changedPaths()`, which hashed
    /// again those kept with a digest): one kept with a digest whose last change was long
    /// enough before that (`StatCache.racyWindow`) is kept by its `stat` alone from now on, as
    /// a later change shows in it; it is not hashed at every start again.
    static func after(
        _ operations: [String: KnownResults.Entry], observed: [String: FileObservations.Observed], baseline: Baseline,
        previous: UpToDateSnapshot?, reused: [String], taken: Int64, checked: Int64 = .min
    ) -> UpToDateSnapshot? {
        let old = previous?.files ?? []
        var kept = [Bool](repeating: false, count: old.count)
        if let previous {
            for id in reused { for index in previous.fileIndices[id] ?? [] { kept[Int(index)] = true } }
        }
        var fresh: [String: Entry] = [:]
        fresh.reserveCapacity(observed.count + baseline.files.count)
        for (path, seen) in observed {
            let entry = Entry(path: path, stat: seen.stat, digest: seen.digest)
            if let index = Self.index(of: path, in: old), kept[index], old[index].stat != entry.stat { return nil }
            fresh[path] = entry
        }
        for (path, stat) in baseline.files { fresh[path] = Entry(path: path, stat: stat) }
        let added = fresh.values.sorted { $0.path < $1.path }

        // Both lists are sorted: merged, a fresh entry replaces a kept one of the same path.
        var files: [Entry] = []
        files.reserveCapacity(old.count + added.count)
        var newIndex = [Int32](repeating: -1, count: old.count)
        var (next, nextAdded) = (0, 0)
        while next < old.count || nextAdded < added.count {
            if next < old.count, !kept[next] {
                next += 1
            } else if nextAdded < added.count, next == old.count || added[nextAdded].path <= old[next].path {
                if next < old.count, added[nextAdded].path == old[next].path {
                    newIndex[next] = Int32(files.count)
                    next += 1
                }
                files.append(added[nextAdded])
                nextAdded += 1
            } else {
                newIndex[next] = Int32(files.count)
                files.append(old[next].settled(checkedAt: checked))
                next += 1
            }
        }

        let reusedIDs = Set(reused)
        var fileIndices: [String: [Int32]] = [:]
        fileIndices.reserveCapacity(operations.count)
        for (id, entry) in operations {
            if reusedIDs.contains(id), let previous, let indices = previous.fileIndices[id],
                previous.operationEntries[id]?.files == entry.files
            {
                fileIndices[id] = indices.map { newIndex[Int($0)] }
                continue
            }
            var indices: [Int32] = []
            for path in entry.files {
                guard let index = Self.index(of: path, in: files) else { return nil }
                indices.append(Int32(index))
            }
            fileIndices[id] = indices
        }
        return UpToDateSnapshot(
            operations: operations.count, taken: taken, files: files, operationEntries: operations,
            fileIndices: fileIndices)
    }

    /// This snapshot, whose paths were all found current at `checked`, with each file kept with
    /// a digest whose last change was long enough before that kept by its `stat` alone
    /// (`Entry.settled(checkedAt:)`); nil when there is no such file.
    func settled(checkedAt checked: Int64) -> UpToDateSnapshot? {
        let settledFiles = files.map { $0.settled(checkedAt: checked) }
        guard settledFiles != files else { return nil }
        return UpToDateSnapshot(
            operations: operations, taken: taken, files: settledFiles, operationEntries: operationEntries,
            fileIndices: fileIndices)
    }

    /// The position of `path` in `files`, sorted by path, if it is there.
    static func index(of path: String, in files: [Entry]) -> Int? {
        var (low, high) = (0, files.count)
        while low < high {
            let middle = (low + high) / 2
            if files[middle].path < path { low = middle + 1 } else { high = middle }
        }
        return low < files.count && files[low].path == path ? low : nil
    }
}

extension UpToDateSnapshot.Entry {
    /// This entry, found current at `checked`, without its digest when its last change was at
    /// least `StatCache.racyWindow` before that: a change since shows in its `stat`.
    func settled(checkedAt checked: Int64) -> Self {
        guard digest != nil, let stat, checked > Int64.min + StatCache.racyWindow,
            stat.modified < checked - StatCache.racyWindow
        else { return self }
        return Self(path: path, stat: stat)
    }
}
