import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Remote records copied into the local store: beside the run once the blobs this run
/// downloaded complete one, the others at the end if their blobs are there; never one this run
/// wrote its own record for.
@Suite struct RemoteRecordCopiesTests {
    /// A record of a stored result under `sampleKey(text)`, and the result's digest.
    private func recordOfStoredResult(_ text: String, in store: ContentStore) async throws -> ActionRecord {
        sampleRecord(result: try await store.storeResult(BytesResult(Data(text.utf8))), key: text)
    }

    /// Waits (at most 10 s) until `condition` holds.
    private func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<1000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        return condition()
    }

    @Test func aRecordIsCopiedBesideTheRunOnceItsBlobIsDownloaded() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        let record = try await recordOfStoredResult("found first", in: store)
        copies.found(record, for: sampleKey("found first"))
        #expect(!FileManager.default.fileExists(atPath: store.recordPath(sampleKey("found first"))))

        copies.stored(record.result)
        #expect(
            try await eventually { FileManager.default.fileExists(atPath: store.recordPath(sampleKey("found first"))) })
        #expect(await store.record(for: sampleKey("found first")) == record)
    }

    @Test func aRecordWhoseBlobWasDownloadedFirstIsCopiedWhenFound() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        let record = try await recordOfStoredResult("stored first", in: store)
        copies.stored(record.result)
        copies.found(record, for: sampleKey("stored first"))
        #expect(
            try await eventually { FileManager.default.fileExists(atPath: store.recordPath(sampleKey("stored first"))) }
        )
    }

    @Test func theEndCopiesRecordsWhoseBlobsAreThereAndNoOther() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        let present = try await recordOfStoredResult("present", in: store)
        let absent = sampleRecord(result: ContentDigest.sha256(of: Data("never stored".utf8)), key: "absent")
        copies.found(present, for: sampleKey("present"))
        copies.found(absent, for: sampleKey("absent"))

        await copies.finish(timeout: .seconds(10))
        #expect(await store.record(for: sampleKey("present")) == present)
        #expect(!FileManager.default.fileExists(atPath: store.recordPath(sampleKey("absent"))))
    }

    @Test func aRecordThisRunWroteItselfIsNotReplaced() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        let remote = try await recordOfStoredResult("own", in: store)
        copies.found(remote, for: sampleKey("own"))
        copies.forget(sampleKey("own"))
        copies.stored(remote.result)

        await copies.finish(timeout: .seconds(10))
        #expect(!FileManager.default.fileExists(atPath: store.recordPath(sampleKey("own"))))
    }

    @Test func everyRecordCompletedFromManyTasksAtOnceIsCopied() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        var records: [ActionRecord] = []
        for index in 0..<64 { records.append(try await recordOfStoredResult("many \(index)", in: store)) }
        await withTaskGroup(of: Void.self) { group in
            for (index, record) in records.enumerated() {
                group.addTask {
                    copies.found(record, for: sampleKey("many \(index)"))
                    copies.stored(record.result)
                }
            }
        }

        await copies.finish(timeout: .seconds(10))
        for index in records.indices {
            #expect(await store.record(for: sampleKey("many \(index)")) == records[index], "\(index)")
        }
    }
}
