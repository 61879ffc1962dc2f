import Foundation

extension ResultStore {
    /// `relocated`, a record `OutputLocations` moved from `original`'s paths, with a result that
    /// names its file where this run writes it: a `save`'s `WrittenFile` result names its path,
    /// so one recorded for another output directory is stored again with this run's path.
    /// - Returns: nil when the stored result cannot be read or stored again (a miss).
    package func resultRelocated(_ relocated: ActionRecord, from original: ActionRecord) async -> ActionRecord? {
        guard relocated.resultKind == WrittenFile.kind, relocated.outputFiles.count == 1,
            relocated.outputFiles[0].path != original.outputFiles[0].path
        else { return relocated }
        guard let written = try? await loadResult(StoredResult(relocated)) as? WrittenFile,
            written.path == original.outputFiles[0].path
        else { return nil }
        let moved = WrittenFile(path: relocated.outputFiles[0].path, byteCount: written.byteCount)
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
