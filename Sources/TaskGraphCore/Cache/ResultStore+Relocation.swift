import Foundation

extension ResultStore {
    /// `relocated`, a record `OutputLocations` moved from `original`'s paths, with a result that
    /// names its files where this run writes them: a result that names paths (a `save`'s
    /// `WrittenFile`, `OperationResult.withPaths(mapped:)`) recorded for another output
    /// directory is stored again with this run's paths, each of `original`'s output files
    /// renamed to `relocated`'s in the same place. Any other result is read (to ask it) and
    /// kept as it is.
    /// - Returns: nil (a miss) when the stored result cannot be read or stored again, names a
    ///   path that is not one of `original`'s output files (it cannot say where this run's is),
    ///   or the two records do not list as many output files.
    package func resultRelocated(_ relocated: ActionRecord, from original: ActionRecord) async -> ActionRecord? {
        let originalPaths = original.outputFiles.map(\.path)
        let relocatedPaths = relocated.outputFiles.map(\.path)
        guard relocatedPaths.count == originalPaths.count else { return nil }
        let stored = StoredResult(relocated)
        // A result left out of the store, or a fused chain's intermediate, has nothing to read.
        guard relocatedPaths != originalPaths, !stored.isUnstored, stored.resultKind != StoredResult.kind else {
            return relocated
        }
        guard let result = try? await loadResult(stored) else { return nil }
        var namesPaths = false
        let moved: any OperationResult
        do {
            moved = try result.withPaths { path in
                namesPaths = true
                guard let index = originalPaths.firstIndex(of: path) else { throw NotAnOutputFile() }
                return relocatedPaths[index]
            }
        } catch {
            return nil
        }
        guard namesPaths else { return relocated }
        let limit = relocated.inlineResult == nil ? 0 : ActionRecord.inlineLimit
        guard let (digest, inline): (ContentDigest, Data?) = try? await storeResult(moved, inliningUpTo: limit) else {
            return nil
        }
        var record = relocated
        record.result = digest
        record.inlineResult = inline
        record.summary = moved.summary
        return record
    }
}

/// A relocated result names a path its record does not write.
private struct NotAnOutputFile: Error {}
