import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// The reference a store keeps for a result it left out, and the rule that leaves it out.
struct UnstoredResultTests {
    private let reference = UnstoredResult(
        identity: UnstoredResult.identity(ofResultKeyedBy: ContentDigest.sha256(of: Data("key".utf8))),
        resultKind: "image.decoded",
        summary: "3888×2592 RGB",
        byteCount: 31_104_016, recomputeSeconds: 0.123)

    @Test func itSaysWhyTheResultWasNotStored() {
        #expect(reference.reason == "not stored (recomputing takes 0.12 s, under 10× writing 31.1 MB)")
        #expect(
            CacheDecision(.miss, .recomputed, detail: reference.reason).explanation
                == "recomputed: not stored (recomputing takes 0.12 s, under 10× writing 31.1 MB)")
    }

    @Test func itRoundTripsThroughTheCoreRegistry() async throws {
        let trip = try await roundTrip(reference, through: .core)
        #expect(trip.decoded == reference)
        #expect(trip.fromRegistry as? UnstoredResult == reference)
        #expect(trip.digest == trip.digestOfEncoding)
        // Version, digest, the two strings (a count, then UTF-8: 13 and 14 bytes), two u64s.
        #expect(trip.payload.count == 92)
        for damaged in damagedCopies(of: trip.payload) {
            #expect(throws: ResultCodingError.self) { try UnstoredResult(serialized: damaged) }
        }
    }

    @Test func itsPlaceholderCarriesTheResultsIdentity() {
        let placeholder = StoredResult(reference)
        #expect(placeholder.digest == reference.identity)
        #expect(placeholder.isUnstored)
        #expect(!StoredResult(digest: reference.identity, resultKind: "image.decoded", summary: "").isUnstored)
    }

    @Test func itsIdentityIsTheDigestOfAPrefixAndTheKeyAndNoDigestOfTheKeyAlone() throws {
        let key = ContentDigest.sha256(of: Data("key".utf8))
        let identity = UnstoredResult.identity(ofResultKeyedBy: key)
        #expect(identity == ContentDigest.sha256(of: Data("taskgraph-unstored-1\n".utf8) + key.bytes))
        #expect(identity != key)
        #expect(identity != ContentDigest.sha256(of: Data(key.bytes)))
        #expect(identity != UnstoredResult.identity(ofResultKeyedBy: ContentDigest.sha256(of: Data("kez".utf8))))
    }

    @Test func aResultIsKeptWhenRecomputingItCostsAtLeastTenTimesWritingIt() {
        // Writing 30 MB costs 0.0301 s by this rule.
        let policy = StoragePolicy(secondsPerByte: 1e-9, secondsPerBlob: 1e-4)
        #expect(!policy.keeps(byteCount: 30_000_000, recomputeSeconds: 0.2))
        #expect(!policy.keeps(byteCount: 30_000_000, recomputeSeconds: 0.3))
        #expect(policy.keeps(byteCount: 30_000_000, recomputeSeconds: 0.302))
        #expect(policy.keeps(byteCount: 0, recomputeSeconds: 1e-3))
        #expect(!policy.keeps(byteCount: 0, recomputeSeconds: 0.9e-3))
        #expect(StoragePolicy(secondsPerByte: 0, secondsPerBlob: 0).keeps(byteCount: 1 << 40, recomputeSeconds: 0))
    }

    @Test func theCostOfWritingIsTwiceHashingAndCopyingEachByteMeasuredOnceOnThisMachine() {
        let cost = StorageCost.measured(hashing: 0.7e-9, copying: 0.4e-9)
        #expect(abs(cost.secondsPerByte - 2.2e-9) < 1e-15)
        #expect(abs(cost.seconds(toWrite: 1_000_000) - (60e-6 + 2.2e-3)) < 1e-12)
        #expect(cost.secondsPerBlob == 60e-6)
        // Measured on whatever runs the test: some nanoseconds a byte, and the same each time
        // it is asked for (once per process).
        let measured = StorageCost.onThisMachine
        #expect(measured.secondsPerByte > 1e-10 && measured.secondsPerByte < 1e-7)
        #expect(StorageCost.onThisMachine == measured)
        #expect(StoragePolicy().cost == measured)
        let given = StoragePolicy(secondsPerByte: 1, secondsPerBlob: 2)
        #expect(given.cost == StorageCost(secondsPerByte: 1, secondsPerBlob: 2))
    }

    @Test func aResultsRecomputeTimeCountsItsOwnWorkNotItsInputsRecomputedBeforeIt() async throws {
        // Storing costs a day a byte by this rule: every result it may leave out is left out.
        let leavesOut = StoragePolicy(secondsPerByte: 1, secondsPerBlob: 1)
        let store = MemoryResultStore()
        func graph(_ word: String) throws -> ExecutionGraph {
            var graph = ExecutionGraph()
            let slow = try graph.add("slow", action: Burn(word: "s", milliseconds: 40))
            // It waits 30 ms besides, as a node does for a core on a loaded machine: its wall time
            // is then more than its CPU time, and the least of the two is its CPU time.
            let fast = try graph.add(
                "fast", action: Burn(word: word, milliseconds: 1, waiting: 30), needs: [slow])
            try graph.add("last", action: Burn(word: "l", milliseconds: 0), needs: [fast])
            return graph
        }
        func unstored(_ id: String, _ cache: RunCache) async throws -> UnstoredResult {
            let key = try #require(cache.components[id]).key
            let record = try #require(await store.record(for: key))
            return try #require(try await store.loadResult(record.result) as? UnstoredResult)
        }
        let first = RunCache(store: store, storagePolicy: leavesOut)
        _ = await Engine().run(try graph("a"), cache: first)
        let slow = try await unstored("slow", first)

        let second = RunCache(store: store, storagePolicy: leavesOut)
        let run = await Engine().run(try graph("b"), cache: second)
        #expect(run.nodes.map(\.outcome.kind) == [.cached, .succeeded, .succeeded])
        #expect(second.decisions["slow"]?.reason == .recomputed)
        // Its own 1 ms and slow's recorded 40 ms: slow's recomputation, which its node's meter
        // also measured, is not counted a second time.
        let fast = try await unstored("fast", second)
        #expect(fast.recomputeSeconds >= slow.recomputeSeconds)
        #expect(fast.recomputeSeconds < slow.recomputeSeconds * 1.5)
    }

    /// Spends `milliseconds` of CPU time on a blocking thread (metered as a kernel's work is) and
    /// waits `waiting` milliseconds, then appends `word` to its inputs' bytes. Its result may be
    /// left out of the store.
    private struct Burn: CacheableAction {
        let word: String
        let milliseconds: Double
        var waiting = 0

        var cacheVersion: Int { 1 }
        var isRecomputable: Bool { true }

        func addParameters(to key: inout KeyComponents) {
            key.add("word", word)
        }

        func run(in context: TaskContext) async throws -> any OperationResult {
            let seconds = milliseconds / 1000
            try await BlockingIO.run {
                let start = Self.threadCPUSeconds()
                while Self.threadCPUSeconds() - start < seconds {}
            }
            try await Task.sleep(for: .milliseconds(waiting))
            var data = Data()
            for input in context.inputs((any BytesProvider).self) { data += try await input.value.data }
            return ReuseOrRunTests.SizedBytes(data: data + Data(word.utf8))
        }

        private static func threadCPUSeconds() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
    }
}
