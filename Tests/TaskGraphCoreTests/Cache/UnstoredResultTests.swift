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
        #expect(reference.reason == "not stored (cheaper to recompute, 0.12 s vs 31.1 MB)")
        #expect(
            CacheDecision(.miss, .recomputed, detail: reference.reason).explanation
                == "recomputed: not stored (cheaper to recompute, 0.12 s vs 31.1 MB)")
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

    @Test func theRuleWeighsRecomputingAgainstWritingAndReading() {
        let policy = StoragePolicy(secondsPerByte: 1e-9, secondsPerBlob: 1e-4)
        #expect(!policy.keeps(byteCount: 30_000_000, recomputeSeconds: 0.02))
        #expect(policy.keeps(byteCount: 30_000_000, recomputeSeconds: 0.2))
        #expect(policy.keeps(byteCount: 0, recomputeSeconds: 1e-4))
        #expect(StoragePolicy(secondsPerByte: 0, secondsPerBlob: 0).keeps(byteCount: 1 << 40, recomputeSeconds: 0))
    }
}
