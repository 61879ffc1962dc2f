import Foundation
import OperationTestSupport

@testable import TaskGraphCore

/// The actions, results, store and event sink `ReuseOrRunTests` runs with.
extension ReuseOrRunTests {
    /// Appends `word` to its inputs' bytes; `note` is keyed but changes nothing. Counts its runs.
    /// Its result may be left out of the store (`StoragePolicy`).
    struct Append: CacheableAction {
        let word: String
        var note = ""
        let runs: RunCacheTests.Runs

        var cacheVersion: Int { 1 }
        var isRecomputable: Bool { true }

        func addParameters(to key: inout KeyComponents) {
            key.add("word", word)
            key.add("note", note)
        }

        func run(in context: TaskContext) async throws -> any OperationResult {
            runs.count(context.id)
            var data = Data()
            for input in context.inputs((any BytesProvider).self) { data += try await input.value.data }
            return SizedBytes(data: data + Data(word.utf8))
        }
    }

    /// Bytes whose size is known without serialising them, so a store may leave them out.
    struct SizedBytes: BytesProvider {
        let data: Data
        var summary: String { "\(data.count) B" }
        static var kind: String { "test.sized" }
        init(data: Data) { self.data = data }
        init(serialized payload: Data) { data = payload }
        func serialized() async throws -> Data { data }
        var payloadByteCount: Int? { data.count }
    }

    /// A result that cannot be serialised, so it has no digest.
    struct Undigestible: OperationResult {
        var summary: String { "?" }
        static var kind: String { "test.undigestible" }
        init() {}
        init(serialized payload: Data) throws { throw Damage() }
        func serialized() async throws -> Data { throw Damage() }
    }

    struct Damage: Error, CustomStringConvertible {
        var description: String { "damaged blob" }
    }

    /// A store that fails reading back what `MemoryResultStore` holds: the files a record names
    /// (`damagedFiles`) or the results (`damagedResults`, once each).
    final class DamagingStore: ResultStore {
        let base = MemoryResultStore()
        let damagedFiles = Locked(false)
        let damagedResults = Locked(false)

        func record(for key: ContentDigest) async -> ActionRecord? { await base.record(for: key) }
        func write(_ record: ActionRecord, for key: ContentDigest) async throws {
            try await base.write(record, for: key)
        }
        func storeResult(_ result: any OperationResult) async throws -> ContentDigest {
            try await base.storeResult(result)
        }
        func storeFile(at path: String) async throws -> ContentDigest { try await base.storeFile(at: path) }
        func digest(ofFile path: String) async throws -> ContentDigest { try await base.digest(ofFile: path) }
        func blockingDigest(ofFile path: String) throws -> ContentDigest { try base.blockingDigest(ofFile: path) }

        func loadResult(_ digest: ContentDigest) async throws -> any OperationResult {
            if damagedResults.withLock({ damaged in
                defer { damaged = false }
                return damaged
            }) {
                throw Damage()
            }
            return try await base.loadResult(digest)
        }

        func materialize(_ digest: ContentDigest, at path: String) async throws -> Bool {
            if damagedFiles.withLock({ $0 }) { throw Damage() }
            return try await base.materialize(digest, at: path)
        }
    }

    /// Collects the warnings of a run.
    final class Warnings: EventSink {
        private let messages = Locked<[String]>([])
        func receive(_ event: EngineEvent) {
            if case .warning(_, let message) = event.kind { messages.withLock { $0.append(message) } }
        }
        var all: [String] { messages.withLock { $0 } }
    }
}
