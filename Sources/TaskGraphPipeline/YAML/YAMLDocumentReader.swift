/// Reads a pipeline file's text into a `YAMLValue` (plain YAML directly, see `PlainYAMLReader`;
/// any other text through libyaml, see `YAMLComposer`), turning every syntax problem, duplicate
/// key, tab indentation, alias bomb and over-deep nesting into a located diagnostic.
package struct YAMLDocumentReader {
    /// The file path used in locations.
    package let file: String
    /// The most nodes aliases may expand the document to, relative to its size: a document that
    /// grows past `expansionFactor × bytes + expansionAllowance` nodes is refused (billion laughs).
    var expansionFactor = 10
    var expansionAllowance = 10_000

    /// A reader whose locations name `file`.
    package init(file: String) {
        self.file = file
    }

    /// The document's root value, or nil with the diagnostics that explain why not.
    package func read(_ text: String) -> (value: YAMLValue?, diagnostics: [Diagnostic]) {
        let start = SourceLocation(file: file, line: 1, column: 1)
        var text = text
        if let plain = text.withUTF8({ PlainYAMLReader(file: file).read($0) }) { return (plain, []) }
        let (tabs, tooDeep) = text.withUTF8 { bytes in
            (tabIndentationDiagnostics(in: bytes), nestingLimitDiagnostic(in: bytes))
        }
        if text.allSatisfy({ $0.isWhitespace }) {
            return (nil, [.error("the pipeline file is empty", at: start)])
        }
        if let tooDeep { return (nil, [tooDeep]) }
        let budget = expansionFactor * text.utf8.count + expansionAllowance
        do {
            let (root, found) = try YAMLComposer(file: file, nodeBudget: budget).compose(text)
            guard let root else {
                return (nil, tabs + found + [.error("the pipeline file holds no YAML document", at: start)])
            }
            return (root, tabs + found)
        } catch {
            let onTabLine = tabs.contains { $0.location.line == error.diagnostic.location.line }
            return (nil, tabs + (onTabLine ? [] : [withQuotingHint(error.diagnostic, in: text)]))
        }
    }

    /// The most nesting a pipeline may use. Nested values are checked and released recursively,
    /// so a hostile file nested thousands deep is refused before it is parsed.
    static let maximumNesting = 200

    /// An error if flow brackets (`[`, `{`) nest, or indentation reaches, deeper than the limit.
    /// Brackets are counted even inside quotes, so no quoting trick can hide a deep nest; no
    /// real pipeline has hundreds of unclosed brackets in a string.
    private func nestingLimitDiagnostic(in text: UnsafeBufferPointer<UInt8>) -> Diagnostic? {
        var depth = 0
        var line = 1
        var column = 0
        var atLineStart = true
        var indentation = 0
        for byte in text {
            column += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 0
                atLineStart = true
                indentation = 0
                continue
            }
            if atLineStart {
                if byte == UInt8(ascii: " ") {
                    indentation += 1
                    if indentation > Self.maximumNesting * 8 { return nestingError(line, column) }
                    continue
                }
                atLineStart = false
            }
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > Self.maximumNesting { return nestingError(line, column) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }

    private func nestingError(_ line: Int, _ column: Int) -> Diagnostic {
        .error(
            "YAML nests deeper than \(Self.maximumNesting) levels; refusing to read it",
            at: SourceLocation(file: file, line: line, column: column))
    }

    private func tabIndentationDiagnostics(in text: UnsafeBufferPointer<UInt8>) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var line = 1
        var column = 0
        var inIndentation = true
        for byte in text {
            column += 1
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                column = 0
                inIndentation = true
            case UInt8(ascii: "\t") where inIndentation:
                diagnostics.append(
                    .error(
                        "tab character in indentation; YAML indents with spaces only",
                        at: SourceLocation(file: file, line: line, column: column)))
                inIndentation = false
            case UInt8(ascii: " "):
                break
            default:
                inIndentation = false
            }
        }
        return diagnostics
    }
}
