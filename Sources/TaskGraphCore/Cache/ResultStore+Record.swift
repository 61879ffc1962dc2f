import Foundation

extension ResultStore {
    /// Stores `result` and the files at `outputFiles` as blobs (or, `inlining`, holds small ones
    /// in the record) and returns the record naming them; writing the record under a key is left
    /// to the caller.
    /// - Parameters:
    ///   - id: the operation instance that produced it.
    ///   - components: the key's components.
    ///   - seconds: how long the operation ran.
    ///   - storingResult: false names the result by its digest without storing it (an
    ///     intermediate of a fused chain).
    ///   - inlining: whether the record may hold a result, and output files, of at most
    ///     `ActionRecord.inlineLimit` bytes instead of blobs (not for a result or file another
    ///     process reads by its digest: a cluster job's); files only while the bytes it holds
    ///     stay within `ActionRecord.heldFilesLimit`, the rest as blobs.
    /// - Throws: what storing a blob throws.
    public func storeBlobs(
        of result: any OperationResult, outputFiles: [String], id: String, components: KeyComponents, seconds: Double,
        storingResult: Bool = true, inlining: Bool = false
    ) async throws -> ActionRecord {
        let (digest, inline): (ContentDigest, Data?) =
            storingResult
            ? try await storeResult(result, inliningUpTo: inlining ? ActionRecord.inlineLimit : 0)
            : (try await result.digest, nil)
        var files: [ActionRecord.OutputFile] = []
        var room = inlining ? ActionRecord.heldFilesLimit : 0
        for path in outputFiles {
            let (digest, contents) = try await storeFile(
                at: path, inliningUpTo: min(ActionRecord.inlineLimit, room))
            room -= contents?.count ?? 0
            files.append(ActionRecord.OutputFile(path: path, digest: digest, contents: contents))
        }
        return ActionRecord(
            result: digest, resultKind: type(of: result).kind, summary: result.summary, outputFiles: files,
            validators: (result as? any RevalidatableResult)?.validators ?? [:], seconds: seconds,
            recordedAt: Date().timeIntervalSince1970, id: id, components: components, inlineResult: inline)
    }
}
