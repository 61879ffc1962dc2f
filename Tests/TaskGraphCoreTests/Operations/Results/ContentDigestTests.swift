import Foundation
import TaskGraphCore
import Testing

@Suite struct ContentDigestTests {
    /// FIPS 180-2's first example.
    private let abc = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    @Test func isTheSHA256OfTheBytesWrittenWithItsAlgorithm() {
        let digest = ContentDigest.sha256(of: Data("abc".utf8))
        #expect(digest.description == abc)
        #expect(digest.hex.count == 64)
        #expect(digest.bytes.count == 32)
        #expect(
            ContentDigest.sha256(of: Data()).description
                == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func hashingInPiecesGivesTheSameDigest() async throws {
        let data = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var hasher = ContentHasher()
        try await hasher.update(chunked: data, sliceSize: 999)
        #expect(hasher.finalize() == ContentDigest.sha256(of: data))
        var sliced = ContentHasher()
        try await sliced.update(chunked: data[100...], sliceSize: 999)
        #expect(sliced.finalize() == ContentDigest.sha256(of: Data(data[100...])))
    }

    @Test func parsesItsOwnTextAndRefusesAnythingElse() {
        #expect(ContentDigest(abc)?.description == abc)
        #expect(ContentDigest(abc.uppercased().replacingOccurrences(of: "SHA256", with: "sha256"))?.description == abc)
        #expect(ContentDigest(String(abc.dropLast())) == nil)
        #expect(ContentDigest(abc + "0") == nil)
        #expect(ContentDigest("md5:" + abc.dropFirst(7)) == nil)
        #expect(ContentDigest(abc.replacingOccurrences(of: "ba78", with: "zz78")) == nil)
        #expect(ContentDigest(bytes: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(ContentDigest(bytes: [UInt8](repeating: 0, count: 32))?.hex == String(repeating: "0", count: 64))
    }

    @Test func codesAsItsText() throws {
        let digest = ContentDigest.sha256(of: Data("abc".utf8))
        let json = try JSONEncoder().encode([digest])
        #expect(String(decoding: json, as: UTF8.self) == "[\"\(abc)\"]")
        #expect(try JSONDecoder().decode([ContentDigest].self, from: json) == [digest])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ContentDigest].self, from: Data("[\"sha256:00\"]".utf8))
        }
    }
}
