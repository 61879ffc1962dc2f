import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// A result stored from the parts of its payload where they lie (`PayloadPartsProvider`): its
/// blob and digest are those of its serialised encoding, it reads back equal, and one small
/// enough for its record is returned inline rather than written.
@Suite struct PayloadPartsTests {
    /// A payload held as several parts, as an image holds its header and its pixels.
    private struct PartedResult: PayloadPartsProvider, Equatable {
        let parts: [Data]
        var summary: String { "\(parts.count) parts" }
        static let kind = "test.parted"
        var payloadByteCount: Int? { parts.reduce(0) { $0 + $1.count } }

        init(parts: [Data]) {
            self.parts = parts
        }

        init(serialized payload: Data) {
            parts = [payload]
        }

        func serialized() async throws -> Data {
            parts.reduce(Data(), +)
        }

        func withPayloadParts<Result>(_ body: ([Data]) throws -> Result) throws -> Result {
            try body(parts)
        }

        static func == (left: Self, right: Self) -> Bool {
            left.parts.reduce(Data(), +) == right.parts.reduce(Data(), +)
        }
    }

    private func store() throws -> ContentStore {
        ContentStore(
            root: try emptyDirectory() + "/cache",
            registry: ResultRegistry(CoreOperations.resultKinds + [ResultKind(PartedResult.self)]))
    }

    /// 3 MiB over three parts, one of them empty.
    @Test func aResultIsStoredFromItsPartsAsItsEncoding() async throws {
        let store = try store()
        let result = PartedResult(parts: [
            Data("head".utf8), Data(), Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }),
        ])
        let (digest, inline) = try await store.storeResult(result, inliningUpTo: ActionRecord.inlineLimit)
        #expect(inline == nil)
        #expect(digest == (try await result.digest))
        let blob = try Data(contentsOf: URL(fileURLWithPath: store.blobPath(digest)))
        #expect(blob == (try await SerializedResult(of: result).encoded))
        #expect(try await store.loadResult(digest) as? PartedResult == result)
        #expect(try await store.storeResult(result) == digest)
        let directory = store.root + "/v1/blobs/" + digest.hex.prefix(2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [digest.hex])
    }

    @Test func aSmallResultIsReturnedForItsRecord() async throws {
        let store = try store()
        let result = PartedResult(parts: [Data("a".utf8), Data("bc".utf8)])
        let (digest, inline) = try await store.storeResult(result, inliningUpTo: ActionRecord.inlineLimit)
        #expect(digest == (try await result.digest))
        #expect(inline == (try await SerializedResult(of: result).encoded))
        #expect(!FileManager.default.fileExists(atPath: store.blobPath(digest)))
    }
}
