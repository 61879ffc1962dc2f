/// Text from outside (file names, values, program output) made safe to show people: control
/// characters escaped so they cannot move the cursor, recolour or rewrite a terminal, and long
/// values cut in messages.
public enum DisplayText {
    /// `text` with every control character (C0, DEL, C1) written as an escape: `\n`, `\r`,
    /// `\t`, otherwise `\u{1B}`.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The most characters of a value `quoted` shows.
    public static let quotedLimit = 120

    /// `text` between single quotes for a message, escaped, and cut after `quotedLimit`
    /// characters with its length in bytes: `'aaaa…' (10485760 bytes)`.
    public static func quoted(_ text: String) -> String {
        guard text.count > quotedLimit else { return "'" + escaped(text) + "'" }
        return "'" + escaped(String(text.prefix(quotedLimit))) + "…' (\(text.utf8.count) bytes)"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
