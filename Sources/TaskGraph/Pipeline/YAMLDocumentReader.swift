import Yams

/// Reads a pipeline file's text into a `YAMLValue`, turning every libyaml problem, duplicate key,
/// tab indentation and alias bomb into a located diagnostic.
struct YAMLDocumentReader {
    /// The file path used in locations.
    let file: String
    /// The most nodes aliases may expand the document to, relative to its size: a document that
    /// grows past `expansionFactor × bytes + expansionAllowance` nodes is refused (billion laughs).
    var expansionFactor = 10
    var expansionAllowance = 10_000

    /// The document's root value, or nil with the diagnostics that explain why not.
    func read(_ text: String) -> (value: YAMLValue?, diagnostics: [Diagnostic]) {
        let start = SourceLocation(file: file, line: 1, column: 1)
        let tabs = tabIndentationDiagnostics(in: text)
        if text.allSatisfy({ $0.isWhitespace }) {
            return (nil, [.error("the pipeline file is empty", at: start)])
        }
        if let tooDeep = nestingLimitDiagnostic(in: text) { return (nil, [tooDeep]) }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            let diagnostic = diagnostic(for: error)
            let onTabLine = tabs.contains { $0.location.line == diagnostic.location.line }
            return (nil, tabs + (onTabLine ? [] : [diagnostic]))
        } catch {
            return (nil, tabs + [.error("cannot parse YAML: \(error)", at: start)])
        }
        guard let root else {
            return (nil, tabs + [.error("the pipeline file holds no YAML document", at: start)])
        }
        var budget = expansionFactor * text.utf8.count + expansionAllowance
        guard let value = convert(root, budget: &budget) else {
            return (nil, [.error(
                "YAML aliases expand to more than \(expansionFactor * text.utf8.count + expansionAllowance) nodes; refusing to read an alias bomb",
                at: start)])
        }
        return (value, tabs)
    }

    /// Converts Yams' tree; the node budget bounds the work aliases can cause (recursion depth
    /// follows the document's nesting, which Yams' own composer has already walked).
    private func convert(_ node: Node, budget: inout Int) -> YAMLValue? {
        budget -= 1
        guard budget >= 0 else { return nil }
        let location = location(of: node)
        switch node {
        case .scalar(let scalar):
            return .scalar(YAMLScalar(text: scalar.string, location: location, style: style(of: scalar)))
        case .sequence(let sequence):
            var items: [YAMLValue] = []
            items.reserveCapacity(sequence.count)
            for item in sequence {
                guard let value = convert(item, budget: &budget) else { return nil }
                items.append(value)
            }
            return .sequence(items, location)
        case .mapping(let mapping):
            var pairs: [YAMLPair] = []
            pairs.reserveCapacity(mapping.count)
            for (key, value) in mapping {
                guard let converted = convert(value, budget: &budget) else { return nil }
                let keyScalar: YAMLScalar
                if case .scalar(let scalar) = key {
                    keyScalar = YAMLScalar(text: scalar.string, location: self.location(of: key), style: style(of: scalar))
                } else {
                    keyScalar = YAMLScalar(text: "", location: self.location(of: key), style: .block)
                }
                pairs.append(YAMLPair(key: keyScalar, value: converted))
            }
            return .mapping(pairs, location)
        case .alias:
            return .scalar(YAMLScalar(text: "", location: location, style: .plain))
        }
    }

    private func style(of scalar: Node.Scalar) -> YAMLScalar.Style {
        switch scalar.style {
        case .plain, .any: .plain
        case .singleQuoted, .doubleQuoted: scalar.string.contains("\n") ? .block : .quoted
        case .literal, .folded: .block
        }
    }

    private func location(of node: Node) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(file: file, line: 1, column: 1) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// The most nesting a pipeline may use. The YAML composer recurses once per level, so a
    /// hostile file nested thousands deep must be refused before it is parsed.
    static let maximumNesting = 200

    /// An error if flow brackets (`[`, `{`) nest, or indentation reaches, deeper than the limit.
    /// Brackets are counted even inside quotes, so no quoting trick can hide a deep nest; no
    /// real pipeline has hundreds of unclosed brackets in a string.
    private func nestingLimitDiagnostic(in text: String) -> Diagnostic? {
        var depth = 0
        var line = 1
        var column = 0
        var atLineStart = true
        var indentation = 0
        for byte in text.utf8 {
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

    private func tabIndentationDiagnostics(in text: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let indentation = line.prefix { $0 == " " || $0 == "\t" }
            if let tab = indentation.firstIndex(of: "\t") {
                let column = line.distance(from: line.startIndex, to: tab) + 1
                diagnostics.append(.error(
                    "tab character in indentation; YAML indents with spaces only",
                    at: SourceLocation(file: file, line: lineNumber, column: column)))
            }
        }
        return diagnostics
    }

    private func diagnostic(for error: YamlError) -> Diagnostic {
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(file: file, line: mark.line, column: mark.column)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let contextText = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            return .error("invalid YAML: \(problem)\(contextText)", at: at(mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            let noun = duplicates.count == 1 ? "key" : "keys"
            return .error("duplicate \(noun) \(keys) in the same mapping", at: at(context.mark))
        case .reader(let problem, let offset, _, let yaml):
            return .error("invalid YAML text: \(problem)", at: readerLocation(offset: offset, in: yaml))
        default:
            return .error("cannot parse YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    private func readerLocation(offset: Int?, in text: String) -> SourceLocation {
        guard let offset else { return SourceLocation(file: file, line: 1, column: 1) }
        let prefix = text.prefix(offset)
        let line = prefix.reduce(1) { $0 + ($1 == "\n" ? 1 : 0) }
        let column = prefix.count - (prefix.lastIndex(of: "\n").map { prefix.distance(from: prefix.startIndex, to: $0) + 1 } ?? 0) + 1
        return SourceLocation(file: file, line: line, column: column)
    }
}
