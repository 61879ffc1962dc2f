/// Advice added to a YAML syntax error for a mistake new users make.
extension YAMLDocumentReader {
    /// `diagnostic` (a syntax error in `text`) with a hint to quote a `${…}` written unquoted
    /// inside `[ … ]` or `{ … }` on its line, where YAML reads the `{` as the start of a mapping.
    func withQuotingHint(_ diagnostic: Diagnostic, in text: String) -> Diagnostic {
        guard diagnostic.message.contains("flow"),
            let line = text.split(separator: "\n", omittingEmptySubsequences: false)
                .dropFirst(diagnostic.location.line - 1).first,
            let reference = Self.unquotedReference(in: line)
        else { return diagnostic }
        var hinted = diagnostic
        hinted.message += "; inside [ … ] a value with ${…} must be quoted: write \"\(reference)\""
        return hinted
    }

    /// The first `${…}` of `line` that starts outside quotes, if any.
    private static func unquotedReference(in line: Substring) -> Substring? {
        var quote: Character?
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if line[index...].hasPrefix("${"), let close = line[index...].firstIndex(of: "}") {
                return line[index...close]
            }
            index = line.index(after: index)
        }
        return nil
    }
}
