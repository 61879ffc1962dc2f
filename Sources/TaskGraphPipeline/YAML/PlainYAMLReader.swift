/// Reads the plain YAML that pipeline files are nearly always written in straight into a
/// `YAMLValue`, several times faster than libyaml's event stream and `YAMLComposer`.
///
/// The plain subset: ASCII text (other characters only in comments) without tabs or carriage
/// returns; a block mapping at column 1 as the root; block mappings and block sequences
/// (`- item`) below it; keys that are plain scalars on one line; values that are plain or
/// quoted scalars on one line, or flow sequences of scalars and flow mappings (whose values may
/// be such sequences) on one line; comments.
///
/// Anything else (anchors, aliases, tags, block scalars, values spanning lines, document
/// markers, an empty value, a duplicate key, nesting `YAMLDocumentReader` refuses, and every
/// syntax error) makes `read` return nil, and the caller reads the text with `YAMLComposer`
/// instead. So for every text, the value is either exactly the one the composer builds,
/// locations included, or the composer's result (diagnostics included) is used:
/// `PlainYAMLReaderTests` compares the two.
struct PlainYAMLReader {
    /// The file path used in locations.
    let file: String

    /// Collections nested deeper than this leave the text to the composer, which needs no stack.
    static let maximumDepth = 64
    /// Texts of at least this many bytes have the mapping in their middle (`operations:`) read
    /// in two halves at once (`PlainYAMLScanner+Split.swift`).
    var parallelMinimumSize = 256 * 1024

    /// The root mapping of `text`, or nil when `text` is not plain (see above).
    func read(_ text: UnsafeBufferPointer<UInt8>) -> YAMLValue? {
        guard Self.hasOnlyPlainCharacters(text) else { return nil }
        let split = text.count >= parallelMinimumSize ? PlainYAMLScanner.Split(of: text) : nil
        var scanner = PlainYAMLScanner(bytes: text, file: file, split: split)
        scanner.skipToContent()
        guard scanner.indent == 0 else { return nil }
        return try? scanner.blockMapping(depth: 0)
    }

    /// No control character but newline (so no tab), and no character libyaml refuses or reads
    /// as a line break. (The scanner refuses characters beyond ASCII outside comments: libyaml
    /// counts columns in characters, the scanner in bytes.)
    private static func hasOnlyPlainCharacters(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 0
        while offset < text.count {
            let byte = text[offset]
            if byte &- 0x20 < 0x5F || byte == PlainYAMLScanner.newline { // printable ASCII
                offset += 1
                continue
            }
            guard byte >= 0x80 else { return false }
            // A Swift string's bytes are valid UTF-8.
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var scalar = UInt32(byte) & (0xFF >> (length + 1))
            for continuation in text[(offset + 1)..<(offset + length)] {
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            guard (0xA0...0xD7FF).contains(scalar) || (0xE000...0xFFFD).contains(scalar) || scalar >= 0x10000,
                scalar != 0x2028, scalar != 0x2029, scalar != 0xFEFF
            else { return false }
            offset += length
        }
        return true
    }
}
