import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// The two-level store against a remote cache held in memory: a blob many ask for at once is
/// downloaded once, a damaged one is a miss for each of them, warned about once, a remote record
/// is copied into the local store by the call that downloads its last blob (one holding its
/// output, which names none, at once), and one waiting for another's download stops when
/// cancelled.
@Suite struct TieredStoreTests {
    /// Bazel's HTTP cache protocol in memory: bodies by path, each `GET` answered after `delay`
    /// and counted.
    private final class MemoryRemoteCache: RemoteCacheClient {
        let bodies: Locked<[String: Data]>
        let gets = Locked<[String: Int]>([:])
        /// How many `GET`s have been answered (their delay over).
        let answered = Locked(0)
        let delay: Duration

        init(_ bodies: [String: Data], delay: Duration = .zero) {
            self.bodies = Locked(bodies)
            self.delay = delay
        }

        func get(_ path: String) async throws -> Data? {
            gets.withLock { $0[path, default: 0] += 1 }
            try await Task.sleep(for: delay)
            answered.withLock { $0 += 1 }
            return bodies.withLock { $0[path] }
        }

        func contains(_ path: String) async throws -> Bool { bodies.withLock { $0[path] != nil } }

        func put(_ path: String, _ body: Data) async throws { bodies.withLock { $0[path] = body } }
    }

    /// The blob of `text` as a result, as machine A's store holds it, and its digest.
    private func blob(_ text: String) async throws -> (digest: ContentDigest, bytes: Data) {
        let store = try temporaryStore()
        let digest = try await store.storeResult(BytesResult(Data(text.utf8)))
        return (digest, try Data(contentsOf: URL(fileURLWithPath: store.blobPath(digest))))
    }

    /// The warnings a store gave.
    private final class Warnings: Sendable {
        let messages = Locked<[String]>([])
    }

    private func tiered(_ remote: MemoryRemoteCache, warnings: Warnings = Warnings()) throws -> TieredStore {
        TieredStore(
            local: try temporaryStore(), remote: remote, uploading: false, signer: nil,
            warn: { message in warnings.messages.withLock { $0.append(message) } })
    }

    @Test func aBlobManyAskForAtOnceIsDownloadedOnceAndKept() async throws {
        let (digest, bytes) = try await blob("asked for by many")
        let remote = MemoryRemoteCache(["cas/" + digest.hex: bytes], delay: .milliseconds(300))
        let store = try tiered(remote)
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<16 {
                group.addTask { try #require(try await store.loadResult(digest) as? BytesResult).data }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results == Array(repeating: Data("asked for by many".utf8), count: 16))
        #expect(remote.gets.withLock { $0["cas/" + digest.hex] } == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.local.blobPath(digest))) == bytes)
    }

    @Test func aDamagedBlobIsAMissForEveryoneAskingAndWarnedAboutOnce() async throws {
        let (digest, bytes) = try await blob("damaged")
        let record = sampleRecord(result: digest, key: "damaged")
        let remote = MemoryRemoteCache(
            [
                "cas/" + digest.hex: bytes + Data("!".utf8),
                "ac/" + sampleKey("damaged").hex: RemoteRecordCoder.encode(record, signer: nil),
            ], delay: .milliseconds(100))
        let warnings = Warnings()
        let store = try tiered(remote, warnings: warnings)
        #expect(await store.record(for: sampleKey("damaged")) == record)

        let failures = await withTaskGroup(of: StoreError?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        _ = try await store.loadResult(digest)
                        return nil
                    } catch {
                        return error as? StoreError
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(failures == Array(repeating: StoreError.corruptEntry(digest), count: 8))
        #expect(warnings.messages.withLock { $0.count } == 1)
        #expect(remote.gets.withLock { $0["cas/" + digest.hex] } == 1, "fetched once for all who asked")
        #expect(!FileManager.default.fileExists(atPath: store.local.blobPath(digest)))
    }

    @Test func aRemoteRecordIsCopiedByTheDownloadOfItsLastBlob() async throws {
        let (result, resultBytes) = try await blob("result")
        let (output, outputBytes) = try await blob("output")
        let directory = try emptyDirectory("outputs")
        let file = ActionRecord.OutputFile(path: directory + "/out.txt", digest: output)
        let record = sampleRecord(result: result, file: file, key: "copied")
        let remote = MemoryRemoteCache([
            "cas/" + result.hex: resultBytes, "cas/" + output.hex: outputBytes,
            "ac/" + sampleKey("copied").hex: RemoteRecordCoder.encode(record, signer: nil),
        ])
        let store = try tiered(remote)
        #expect(await store.record(for: sampleKey("copied")) == record)

        _ = try await store.loadResult(result)
        #expect(!FileManager.default.fileExists(atPath: store.local.recordPath(sampleKey("copied"))))
        #expect(try await store.materialize(output, at: file.path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == outputBytes)
        #expect(await store.local.record(for: sampleKey("copied")) == record)
    }

    @Test func aRemoteRecordHoldingItsOutputIsOneRequestRestoresItAndIsCopiedAtOnce() async throws {
        let encoded = Data("held result".utf8)
        let contents = Data("d41d8cd98f00b204e9800998ecf8427e  data.txt\n".utf8)
        let directory = try emptyDirectory("outputs")
        let file = ActionRecord.OutputFile(
            path: directory + "/out.txt", digest: .sha256(of: contents), contents: contents)
        var record = sampleRecord(result: .sha256(of: encoded), file: file, key: "held")
        record.inlineResult = encoded
        let remote = MemoryRemoteCache(["ac/" + sampleKey("held").hex: RemoteRecordCoder.encode(record, signer: nil)])
        let store = try tiered(remote)

        let (found, unverified) = try #require(await store.reusableRecord(for: sampleKey("held")))
        #expect(found == record)
        #expect(await store.local.record(for: sampleKey("held")) == record, "it names no blob to wait for")
        #expect(try await store.materialize(unverified[0]))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == contents)
        #expect(remote.gets.withLock { $0 } == ["ac/" + sampleKey("held").hex: 1], "one request for the hit")
    }

    @Test func aWaiterCancelledStopsWaitingAtOnceWhileTheFetchGoesOn() async throws {
        let (digest, bytes) = try await blob("slow")
        let remote = MemoryRemoteCache(["cas/" + digest.hex: bytes], delay: .seconds(30))
        let store = try tiered(remote)
        let fetcher = Task { try await store.loadResult(digest) }
        while remote.gets.withLock({ $0["cas/" + digest.hex] }) == nil { try await Task.sleep(for: .milliseconds(5)) }
        let waiter = Task { try await store.loadResult(digest) }
        try await Task.sleep(for: .milliseconds(200))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        // Not held until the fetch ends: that takes 30 s, however slowly a loaded machine ran
        // the waiter up to here (a bound on the waiter's wall time failed under load).
        #expect(remote.answered.withLock { $0 } == 0, "not held until the fetch ends")
        #expect(remote.gets.withLock { $0["cas/" + digest.hex] } == 1, "the waiter fetched nothing itself")
        fetcher.cancel()
        _ = try? await fetcher.value
    }
}
