import TaskGraphCore

/// The name of a blob or record as a collection handles it: the 32 bytes its 64 hexadecimal
/// digits spell, held inline (no heap allocation, cheap to hash), so that listing a store of
/// 100,000 entries makes no string per file.
struct EntryName: Hashable, Sendable {
    /// The bytes, big-endian, 8 at a time.
    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The name of the blob or record `digest` names.
    init(_ digest: ContentDigest) {
        self.init(raw: digest.bytes.withUnsafeBytes { $0 })
    }

    /// The name spelled by the first 32 bytes of `raw`.
    init(raw: UnsafeRawBufferPointer) {
        func word(_ index: Int) -> UInt64 {
            UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self))
        }
        words = (word(0), word(1), word(2), word(3))
    }

    /// The name a file called `hex` has, or nil unless `hex` is exactly 64 lowercase
    /// hexadecimal digits (`StoreLayout.isEntryName`) followed by a NUL byte.
    init?(hex: UnsafePointer<CChar>) {
        guard let first = Self.word(hex, 0), let second = Self.word(hex, 1), let third = Self.word(hex, 2),
            let fourth = Self.word(hex, 3), hex[2 * ContentDigest.byteCount] == 0
        else { return nil }
        words = (first, second, third, fourth)
    }

    /// Its 64 lowercase hexadecimal digits, the file's name.
    var hex: String { withCString { String(cString: $0) } }

    /// Calls `body` with the file's name, NUL-terminated, made on the stack.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        let length = 2 * ContentDigest.byteCount
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text in
            for index in 0..<length {
                let word = index < 32 ? (index < 16 ? words.0 : words.1) : (index < 48 ? words.2 : words.3)
                text[index] = CChar(bitPattern: Self.hexDigits[Int(word >> (60 - 4 * UInt64(index % 16)) & 0xf)])
            }
            text[length] = 0
            return body(text.baseAddress!)
        }
    }

    static func == (left: EntryName, right: EntryName) -> Bool {
        left.words == right.words
    }

    /// Bits of the name that pick its slot in a table (`EntryTable`): digits of a SHA-256
    /// are uniform, so its own bytes serve as a hash.
    var bucket: Int { Int(truncatingIfNeeded: words.0) }

    /// Hashes the first 8 bytes only: the digits of a SHA-256 are uniform, and equality
    /// compares all 32.
    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The 8 bytes spelled by the 16 digits at `hex[16 * index]`, or nil.
    private static func word(_ hex: UnsafePointer<CChar>, _ index: Int) -> UInt64? {
        var word: UInt64 = 0
        for offset in (16 * index)..<(16 * index + 16) {
            guard let nibble = nibble(UInt8(bitPattern: hex[offset])) else { return nil }
            word = word << 4 | UInt64(nibble)
        }
        return word
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
