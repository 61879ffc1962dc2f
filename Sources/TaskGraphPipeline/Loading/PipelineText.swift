import Foundation

/// The text of a pipeline file, from its bytes. YAML text is Unicode without NUL characters;
/// taskgraph reads it as UTF-8 (what nearly every YAML file is), and names the position of the
/// first byte that breaks this instead of reading a replacement character or stopping early.
package enum PipelineText {
    /// The byte order marks of the encodings YAML allows besides UTF-8, longest first.
    private static let otherEncodings: [(name: String, mark: [UInt8])] = [
        ("UTF-32BE", [0x00, 0x00, 0xFE, 0xFF]), ("UTF-32LE", [0xFF, 0xFE, 0x00, 0x00]),
        ("UTF-16BE", [0xFE, 0xFF]), ("UTF-16LE", [0xFF, 0xFE]),
    ]

    /// `bytes` as text.
    /// - Throws: `PipelineError.invalid` locating the first invalid UTF-8 sequence or NUL
    ///   byte, or naming the encoding of a file that starts with a UTF-16 or UTF-32 byte order
    ///   mark.
    package static func decode(_ bytes: Data, file: String) throws(PipelineError) -> String {
        if let encoding = otherEncodings.first(where: { bytes.starts(with: $0.mark) }) {
            throw .invalid([
                .error(
                    "the file is encoded as \(encoding.name); taskgraph reads UTF-8 pipeline files "
                        + "(convert it, e.g. with 'iconv -f \(encoding.name) -t UTF-8')",
                    at: SourceLocation(file: file, line: 1, column: 1))
            ])
        }
        let hasNUL = bytes.withUnsafeBytes { buffer in
            buffer.baseAddress.map { memchr($0, 0, buffer.count) != nil } ?? false
        }
        if !hasNUL, let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        throw .invalid([firstProblem(in: bytes, file: file)])
    }

    /// The error for the first invalid UTF-8 sequence or NUL byte of `bytes`, which has one.
    private static func firstProblem(in bytes: Data, file: String) -> Diagnostic {
        var line = 1
        var column = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            let location = SourceLocation(file: file, line: line, column: column)
            switch decoder.decode(&iterator) {
            case .scalarValue("\n"):
                line += 1
                column = 1
            case .scalarValue("\0"):
                return .error("the file holds a NUL byte, which YAML text may not contain", at: location)
            case .scalarValue:
                column += 1
            case .emptyInput:
                return .error("the file is not valid UTF-8 text", at: location)
            case .error:
                return .error("invalid UTF-8 byte sequence; YAML text must be valid UTF-8", at: location)
            }
        }
    }
}
