import Foundation
import TaskGraphCore

/// A `ResultStore` held in memory: records by key, results as the values stored, files as their
/// bytes. Real enough to run the engine's reuse decisions against in a unit test, without a
/// disk layout; it counts what it was asked.
public final class MemoryResultStore: ResultStore {
    private struct Contents {
        var records: [ContentDigest: ActionRecord] = [:]
        var results: [ContentDigest: any OperationResult] = [:]
        var files: [ContentDigest: Data] = [:]
        var recordWrites = 0
    }

    private let contents = Locked(Contents())
    private let outputLocations = OutputLocations()

    /// An empty store.
    public init() {}

    /// How many records were written.
    public var recordWrites: Int { contents.withLock { $0.recordWrites } }

    /// The keys of the records held.
    public var keys: Set<ContentDigest> { contents.withLock { Set($0.records.keys) } }

    public func record(for key: ContentDigest) async -> ActionRecord? {
        contents.withLock { contents in
            guard let record = contents.records[key],
                contents.results[record.result] != nil || record.resultKind == StoredResult.kind,
                record.outputFiles.allSatisfy({ contents.files[$0.digest] != nil })
            else { return nil }
            return record
        }
    }

    /// `record(for:)`, its files where this store's operation of `key` writes them, all of them
    /// left to `materialize`.
    public func reusableRecord(for key: ContentDigest) async
        -> (record: ActionRecord, unverified: [ActionRecord.OutputFile])?
    {
        guard let original = await record(for: key), let relocated = outputLocations.relocated(original, for: key),
            let record = await resultRelocated(relocated, from: original)
        else { return nil }
        return (record, record.outputFiles)
    }

    public func noteOutputFiles(_ paths: [String], forKey key: ContentDigest) {
        outputLocations.note(paths, forKey: key)
    }

    public func write(_ record: ActionRecord, for key: ContentDigest) async throws {
        contents.withLock { contents in
            contents.records[key] = record
            contents.recordWrites += 1
        }
    }

    public func storeResult(_ result: any OperationResult) async throws -> ContentDigest {
        let digest = try await result.digest
        contents.withLock { $0.results[digest] = result }
        return digest
    }

    public func loadResult(_ digest: ContentDigest) async throws -> any OperationResult {
        guard let result = contents.withLock({ $0.results[digest] }) else {
            throw OperationError.readFailed(path: digest.description, reason: "not in the store")
        }
        return result
    }

    public func storeFile(at path: String) async throws -> ContentDigest {
        let data = try await BlockingIO.run { try FileIO.read(path) }
        let digest = ContentDigest.sha256(of: data)
        contents.withLock { $0.files[digest] = data }
        return digest
    }

    public func materialize(_ digest: ContentDigest, at path: String) async throws -> Bool {
        guard let data = contents.withLock({ $0.files[digest] }) else {
            throw OperationError.readFailed(path: digest.description, reason: "not in the store")
        }
        if (try? await BlockingIO.run { try FileIO.read(path) }) == data { return false }
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        return true
    }

    public func digest(ofFile path: String) async throws -> ContentDigest {
        try await HashingFileDigests().digest(ofFile: path)
    }

    public func blockingDigest(ofFile path: String) throws -> ContentDigest {
        try HashingFileDigests().blockingDigest(ofFile: path)
    }
}
