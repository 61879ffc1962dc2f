import Foundation
import TaskGraphCore
import TestSupport
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

    /// A file is read into a buffer of its size (one byte more) up to 1 MiB, in slices of 1 MiB
    /// beyond: its digest is that of its contents either way.
    @Test func aFileOfAnySizeHashesAsItsContents() throws {
        let directory = try ScratchDirectories.make("taskgraph-digest").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for size in [0, 1, 4095, 4096, 4097, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (3 << 20) + 5] {
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 * 31 + $0 / 4096) })
            let path = directory + "/\(size)"
            try data.write(to: URL(fileURLWithPath: path))
            #expect(try ContentDigest.sha256(ofFileAt: path) == ContentDigest.sha256(of: data), "\(size) bytes")
        }
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
