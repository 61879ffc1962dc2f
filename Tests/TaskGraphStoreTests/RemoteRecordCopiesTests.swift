import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Remote records copied into the local store: beside the run, by the call that completes one
/// (its last blob stored, or the record found after its blobs), the others at the end if their
/// blobs are there; never one this run wrote its own record for.
@Suite struct RemoteRecordCopiesTests {
    /// A record of a stored result under `sampleKey(text)`, and the result's digest.
    private func recordOfStoredResult(_ text: String, in store: ContentStore) async throws -> ActionRecord {
        sampleRecord(result: try await store.storeResult(BytesResult(Data(text.utf8))), key: text)
    }

    @Test func aRecordIsCopiedByTheCallThatStoresItsLastBlob() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        let record = try await recordOfStoredResult("found first", in: store)
        await copies.found(record, for: sampleKey("found first"))
        #expect(!FileManager.default.fileExists(atPath: store.recordPath(sampleKey("found first"))))

        await copies.stored(record.result)
        #expect(await store.record(for: sampleKey("found first")) == record)
    }

    @Test func aRecordWhoseBlobWasDownloadedFirstIsCopiedWhenFound() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        let record = try await recordOfStoredResult("stored first", in: store)
        await copies.stored(record.result)
        await copies.found(record, for: sampleKey("stored first"))
        #expect(await store.record(for: sampleKey("stored first")) == record)
    }

    @Test func theEndCopiesRecordsWhoseBlobsAreThereAndNoOther() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        let present = try await recordOfStoredResult("present", in: store)
        let absent = sampleRecord(result: ContentDigest.sha256(of: Data("never stored".utf8)), key: "absent")
        await copies.found(present, for: sampleKey("present"))
        await copies.found(absent, for: sampleKey("absent"))

        await copies.finish()
        #expect(await store.record(for: sampleKey("present")) == present)
        #expect(!FileManager.default.fileExists(atPath: store.recordPath(sampleKey("absent"))))
    }

    @Test func aRecordThisRunWroteItselfIsNotReplaced() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        let remote = try await recordOfStoredResult("own", in: store)
        await copies.found(remote, for: sampleKey("own"))
        copies.forget(sampleKey("own"))
        await copies.stored(remote.result)

        await copies.finish()
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
                    await copies.found(record, for: sampleKey("many \(index)"))
                    await copies.stored(record.result)
                }
            }
        }

        await copies.finish()
        for index in records.indices {
            #expect(await store.record(for: sampleKey("many \(index)")) == records[index], "\(index)")
        }
    }

    @Test func aCopyThatACancelledCallSkippedIsWrittenAtTheEnd() async throws {
        let store = try temporaryStore()
        let copies = RemoteRecordCopies(local: store)
        let record = try await recordOfStoredResult("cancelled", in: store)
        await copies.found(record, for: sampleKey("cancelled"))
        let task = Task {
            try? await Task.sleep(for: .seconds(10))
            await copies.stored(record.result)
        }
        task.cancel()
        await task.value
        await copies.finish()
        #expect(await store.record(for: sampleKey("cancelled")) == record)
    }
}
