import Foundation
import TaskGraphCore

extension ContentStore {
    /// Makes `file.path` hold `file`'s contents. A file its record holds (an output of at most
    /// `ActionRecord.inlineLimit` bytes) is left alone when it holds them already (the stat cache
    /// knows, else it is hashed when its size matches), otherwise written from the record's bytes,
    /// checked against the digest, atomically, as `materialize(_:at:)` writes from a blob. Any
    /// other is `materialize(file.digest, at: file.path)`.
    /// - Returns: whether the file had to be written.
    /// - Throws: `StoreError.corruptEntry` for held bytes that do not match the digest (a record
    ///   read from the store was checked already), `OperationError.writeFailed` naming the path;
    ///   what `materialize(_:at:)` throws.
    public func materialize(_ file: ActionRecord.OutputFile) async throws -> Bool {
        guard let contents = file.contents else { return try await materialize(file.digest, at: file.path) }
        let size = Int64(contents.count)
        let checked: @Sendable () throws -> Data? = {
            guard ContentDigest.sha256(of: contents) == file.digest else { throw StoreError.corruptEntry(file.digest) }
            return contents
        }
        return try await restoring(file.digest, at: file.path, size: { size }, contents: checked) == .written
    }
}
