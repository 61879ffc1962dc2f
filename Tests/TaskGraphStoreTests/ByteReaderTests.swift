import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Strings read back from the store's encodings: ASCII and other UTF-8 as written, anything
/// else refused.
@Suite struct ByteReaderTests {
    /// The string encoded as `bytes` (a `u64` big-endian length, then the bytes) read back, or
    /// nil when the reader refuses it.
    private func read(encoded bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try? reader.string()
        }
    }

    /// `bytes` as a string's encoding.
    private func encoded(_ bytes: [UInt8]) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(bytes.count) >> ($0 * 8)) } + bytes
    }

    @Test func asciiAndOtherUTF8ReadBackAsWritten() {
        for text in ["", "out/n1224.txt", "/data/Zürich/été – 写真.jpg"] {
            var writer = ResultWriter()
            writer.append(string: text)
            #expect(read(encoded: Array(writer.data)) == text)
        }
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        #expect(read(encoded: encoded([0x61, 0xFF])) == nil)
        #expect(read(encoded: encoded([0x61, 0xC3])) == nil, "a sequence cut short")
        #expect(read(encoded: encoded([0xC0, 0xAF])) == nil, "an overlong encoding of '/'")
    }
}
