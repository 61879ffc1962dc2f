/// `PlainYAMLReader`'s recursive descent over the text. Its position is always at the first
/// character of a line's content (or at the end) between values; it throws `NotPlain` as soon
/// as the text leaves the plain subset.
struct PlainYAMLScanner {
    /// Why the scanner gave up: the text is for the composer.
    struct NotPlain: Error {}

    static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let colon = UInt8(ascii: ":")
    private static let hash = UInt8(ascii: "#")
    private static let comma = UInt8(ascii: ",")
    private static let dash = UInt8(ascii: "-")
    /// Keys this long or longer are not simple keys for libyaml.
    private static let maximumKeyLength = 1024
    /// Indentation `YAMLDocumentReader` refuses.
    private static let maximumIndent = YAMLDocumentReader.maximumNesting * 8

    private let bytes: UnsafeBufferPointer<UInt8>
    private let file: String
    /// The current byte.
    private var position = 0
    /// The current line (1-based) and the offset where it starts.
    private var line = 1
    private var lineStart = 0
    /// The current content line's indentation; -1 at the end of the text.
    private(set) var indent = 0
    /// The children of every collection being read, innermost last: each collection is
    /// allocated once, at its final size, when it ends (as `YAMLComposer` does).
    private var pairs: [YAMLPair] = []
    private var items: [YAMLValue] = []
    /// The keys of the large mappings being read (`operations:`), by depth.
    private var largeMappingKeys: [Int: Set<String>] = [:]

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
    }

    // MARK: Lines

    private func byte(at offset: Int) -> UInt8 {
        offset < bytes.count ? bytes[offset] : Self.newline
    }

    private var current: UInt8 { byte(at: position) }

    private var location: SourceLocation {
        SourceLocation(file: file, line: line, column: position - lineStart + 1)
    }

    /// Whether the line continues with `- ` (or a lone `-`): a block sequence entry.
    private var atSequenceEntry: Bool {
        current == Self.dash && (byte(at: position + 1) == Self.space || byte(at: position + 1) == Self.newline)
    }

    /// Moves to the first character of the next line that holds more than spaces and a comment
    /// (from the current position, which must be a line's start).
    mutating func skipToContent() {
        while position < bytes.count {
            var offset = position
            while offset < bytes.count, bytes[offset] == Self.space { offset += 1 }
            if offset < bytes.count, bytes[offset] != Self.newline, bytes[offset] != Self.hash {
                indent = offset - lineStart
                position = offset
                return
            }
            while offset < bytes.count, bytes[offset] != Self.newline { offset += 1 }
            position = offset + 1
            line += 1
            lineStart = position
        }
        indent = -1
    }

    /// Ends a line after a value: nothing but spaces and a comment (after a space) may follow.
    private mutating func finishLine() throws(NotPlain) {
        let start = position
        skipSpaces()
        guard current == Self.newline || (current == Self.hash && position > start) else { throw NotPlain() }
        skipRestOfLine()
    }

    /// Moves past the end of the line (a comment or nothing) to the next content line.
    private mutating func skipRestOfLine() {
        while position < bytes.count, bytes[position] != Self.newline { position += 1 }
        if position < bytes.count {
            position += 1
            line += 1
            lineStart = position
        }
        skipToContent()
    }

    private mutating func skipSpaces() {
        while current == Self.space { position += 1 }
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    // MARK: Block collections

    /// The block mapping whose first key starts at the position.
    mutating func blockMapping(depth: Int) throws(NotPlain) -> YAMLValue {
        guard depth < PlainYAMLReader.maximumDepth, indent <= Self.maximumIndent else { throw NotPlain() }
        let mappingIndent = indent
        let start = location
        let first = pairs.count
        defer { largeMappingKeys[depth] = nil }
        while indent == mappingIndent {
            guard !atSequenceEntry else { throw NotPlain() }
            let key = try blockKey()
            try checkUnique(key.text, in: first, depth: depth)
            skipSpaces()
            let value: YAMLValue
            if current == Self.newline || current == Self.hash {
                skipRestOfLine()
                if indent > mappingIndent {
                    value = try atSequenceEntry ? blockSequence(depth: depth + 1) : blockMapping(depth: depth + 1)
                } else if indent == mappingIndent, atSequenceEntry {
                    value = try blockSequence(depth: depth + 1)
                } else {
                    throw NotPlain()  // an empty value
                }
            } else {
                value = try inlineValue()
                try finishLine()
                guard indent <= mappingIndent else { throw NotPlain() }  // a value going on below
            }
            pairs.append(YAMLPair(key: key, value: value))
        }
        guard indent < mappingIndent else { throw NotPlain() }
        defer { pairs.removeSubrange(first...) }
        return .mapping(Array(pairs[first...]), start)
    }

    /// Refuses a key that the mapping whose pairs start at `first` already has (the composer
    /// reports it). Small mappings are scanned; a large one gets a set.
    private mutating func checkUnique(_ key: String, in first: Int, depth: Int) throws(NotPlain) {
        let count = pairs.count - first
        if count < 16 {
            guard !pairs[first...].contains(where: { $0.key.text == key }) else { throw NotPlain() }
            return
        }
        if count == 16 { largeMappingKeys[depth] = Set(pairs[first...].map(\.key.text)) }
        guard largeMappingKeys[depth, default: []].insert(key).inserted else { throw NotPlain() }
    }

    /// The block sequence whose first `-` is at the position.
    private mutating func blockSequence(depth: Int) throws(NotPlain) -> YAMLValue {
        guard depth < PlainYAMLReader.maximumDepth, indent <= Self.maximumIndent else { throw NotPlain() }
        let sequenceIndent = indent
        let start = location
        let first = items.count
        while indent == sequenceIndent, atSequenceEntry {
            position += 1
            skipSpaces()
            items.append(try inlineValue())  // `- key: value` is not plain: see `plain`
            try finishLine()
            guard indent <= sequenceIndent else { throw NotPlain() }
        }
        defer { items.removeSubrange(first...) }
        return .sequence(Array(items[first...]), start)
    }

    /// A mapping key in block context: a plain scalar followed by `:` and a space or the line's
    /// end. (A line at column 1 starting with `---`, `...` or `%` is a document marker or
    /// directive: not plain.)
    private mutating func blockKey() throws(NotPlain) -> YAMLScalar {
        let start = position
        let location = self.location
        guard Self.canStartPlain(current, next: byte(at: position + 1)) else { throw NotPlain() }
        if position == lineStart, current == Self.dash || current == UInt8(ascii: "."),
            byte(at: position + 1) == current, byte(at: position + 2) == current {
            throw NotPlain()
        }
        while true {
            let byte = current
            if byte == Self.newline || byte >= 0x80 { throw NotPlain() }
            if byte == Self.hash, bytes[position - 1] == Self.space { throw NotPlain() }
            if byte == Self.colon, self.byte(at: position + 1) == Self.space || self.byte(at: position + 1) == Self.newline {
                break
            }
            position += 1
        }
        guard bytes[position - 1] != Self.space, position - start < Self.maximumKeyLength else { throw NotPlain() }
        let key = YAMLScalar(text: text(start, position), location: location, style: .plain)
        position += 1
        return key
    }

    // MARK: Values on one line

    /// A scalar, flow sequence or flow mapping starting at the position, in block context.
    private mutating func inlineValue() throws(NotPlain) -> YAMLValue {
        switch current {
        case UInt8(ascii: "["): try flowSequence()
        case UInt8(ascii: "{"): try flowMapping()
        case UInt8(ascii: "'"), UInt8(ascii: "\""): .scalar(try quoted())
        default: .scalar(try plain(.block))
        }
    }

    /// Where a plain scalar is, which decides where it ends.
    private enum Context {
        /// A value in a block collection: it runs to the end of the line or a comment.
        case block
        /// A key in a flow mapping: it ends before `: `.
        case flowKey
        /// A value in a flow collection: it ends before `,`, `]` or `}`.
        case flowValue
    }

    /// A plain scalar, without the spaces that end it. A `: ` where a scalar should end (a key
    /// where a value belongs, `- key: value`), any other `:` in a flow collection, flow
    /// brackets inside one and comments inside one are left to the composer.
    private mutating func plain(_ context: Context) throws(NotPlain) -> YAMLScalar {
        let start = position
        let location = self.location
        guard Self.canStartPlain(current, next: byte(at: position + 1)) else { throw NotPlain() }
        var end = position
        scan: while true {
            let byte = current
            switch byte {
            case Self.newline:
                guard context == .block else { throw NotPlain() }
                break scan
            case Self.hash where bytes[position - 1] == Self.space:
                guard context == .block else { throw NotPlain() }
                break scan
            case Self.colon:
                let next = self.byte(at: position + 1)
                if context == .flowKey, next == Self.space { break scan }
                if context != .block || next == Self.space || next == Self.newline { throw NotPlain() }
                end = position + 1
            case Self.comma, UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "{"):
                if context == .block {
                    end = position + 1
                } else if byte == Self.comma || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                    break scan
                } else {
                    throw NotPlain()
                }
            case Self.space: break
            case 0x80...: throw NotPlain()
            default: end = position + 1
            }
            position += 1
        }
        position = end
        return YAMLScalar(text: text(start, end), location: location, style: .plain)
    }

    /// Whether a plain scalar may start with `byte` followed by `next`: not with an indicator,
    /// except `-` before a character that is neither a space nor a flow indicator.
    private static func canStartPlain(_ byte: UInt8, next: UInt8) -> Bool {
        switch byte {
        case dash:
            next != space && next != newline && next != comma && next != UInt8(ascii: "]") && next != UInt8(ascii: "}")
        case UInt8(ascii: "?"), colon, comma, UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
            UInt8(ascii: "}"), hash, UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
            UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
            UInt8(ascii: "`"), space, newline:
            false
        default: true
        }
    }

    /// A single- or double-quoted scalar that ends on its line. Double-quoted escapes other than
    /// the one-character ones are left to the composer.
    private mutating func quoted() throws(NotPlain) -> YAMLScalar {
        let quote = current
        let location = self.location
        position += 1
        var unescaped: [UInt8] = []  // only when the text has `''` or an escape
        var start = position
        while true {
            let byte = current
            if byte == Self.newline || byte >= 0x80 { throw NotPlain() }
            if byte == quote {
                guard quote == UInt8(ascii: "'"), self.byte(at: position + 1) == quote else { break }
                unescaped += bytes[start...position]  // `''` is one quote
                position += 2
                start = position
                continue
            }
            if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                guard let escaped = Self.escape(self.byte(at: position + 1)) else { throw NotPlain() }
                unescaped += bytes[start..<position]
                unescaped.append(escaped)
                position += 2
                start = position
                continue
            }
            position += 1
        }
        let text: String
        if unescaped.isEmpty {
            text = self.text(start, position)
        } else {
            unescaped += bytes[start..<position]
            text = String(decoding: unescaped, as: UTF8.self)
        }
        position += 1
        // As `YAMLEvent` does: a quoted scalar holding a line break has no exact positions.
        return YAMLScalar(text: text, location: location, style: unescaped.contains(Self.newline) ? .block : .quoted)
    }

    /// What a one-character escape `\c` in a double-quoted scalar stands for.
    private static func escape(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0"): 0
        case UInt8(ascii: "a"): 7
        case UInt8(ascii: "b"): 8
        case UInt8(ascii: "t"): 9
        case UInt8(ascii: "n"): 10
        case UInt8(ascii: "v"): 11
        case UInt8(ascii: "f"): 12
        case UInt8(ascii: "r"): 13
        case UInt8(ascii: "e"): 27
        case space, UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "\\"): character
        default: nil
        }
    }

    /// `[a, 'b c', "d"]`: scalars only.
    private mutating func flowSequence() throws(NotPlain) -> YAMLValue {
        let start = location
        let first = items.count
        position += 1
        skipSpaces()
        while current != UInt8(ascii: "]") {
            items.append(.scalar(try flowScalar()))
            try flowSeparator(before: UInt8(ascii: "]"))
        }
        position += 1
        defer { items.removeSubrange(first...) }
        return .sequence(Array(items[first...]), start)
    }

    /// `{key: value, key: [a, b]}`: plain keys; scalars and flow sequences of scalars as values.
    private mutating func flowMapping() throws(NotPlain) -> YAMLValue {
        let start = location
        let first = pairs.count
        position += 1
        skipSpaces()
        while current != UInt8(ascii: "}") {
            let key = try plain(.flowKey)
            guard current == Self.colon, byte(at: position + 1) == Self.space, key.text.utf8.count < Self.maximumKeyLength,
                !pairs[first...].contains(where: { $0.key.text == key.text })
            else { throw NotPlain() }
            position += 1
            skipSpaces()
            let value: YAMLValue = current == UInt8(ascii: "[") ? try flowSequence() : .scalar(try flowScalar())
            pairs.append(YAMLPair(key: key, value: value))
            try flowSeparator(before: UInt8(ascii: "}"))
        }
        position += 1
        defer { pairs.removeSubrange(first...) }
        return .mapping(Array(pairs[first...]), start)
    }

    /// After an entry of a flow collection: `, ` and the next entry, or the closing bracket.
    private mutating func flowSeparator(before close: UInt8) throws(NotPlain) {
        skipSpaces()
        if current == Self.comma {
            position += 1
            skipSpaces()
            guard current != close else { throw NotPlain() }  // a trailing comma
        } else if current != close {
            throw NotPlain()
        }
    }

    private mutating func flowScalar() throws(NotPlain) -> YAMLScalar {
        current == UInt8(ascii: "'") || current == UInt8(ascii: "\"") ? try quoted() : try plain(.flowValue)
    }
}
