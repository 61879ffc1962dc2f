/// `PlainYAMLReader`'s recursive descent over the text: lines and block collections here, values
/// written on one line (scalars, flow collections) in `PlainYAMLScanner+Values.swift`. Between
/// values its position is at the first character of a line's content (or at the end); it throws
/// `NotPlain` as soon as the text leaves the plain subset.
struct PlainYAMLScanner {
    /// Why the scanner gave up: the text is for the composer.
    struct NotPlain: Error {}

    static let newline = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let colon = UInt8(ascii: ":")
    static let hash = UInt8(ascii: "#")
    static let comma = UInt8(ascii: ",")
    static let dash = UInt8(ascii: "-")
    /// Keys this long or longer are not simple keys for libyaml.
    static let maximumKeyLength = 1024
    /// A YAML merge key, which pipelines may not use: `YAMLComposer` says why.
    static let mergeKey = "<<"
    /// Indentation `YAMLDocumentReader` refuses.
    private static let maximumIndent = YAMLDocumentReader.maximumNesting * 8

    var bytes: UnsafeBufferPointer<UInt8>
    let file: String
    /// The current byte.
    var position = 0
    /// The current line (1-based) and the offset where it starts.
    var line = 1
    var lineStart = 0
    /// The current content line's indentation; -1 at the end of the text.
    var indent = 0
    /// The large mapping to read in two halves at once, if any (`PlainYAMLScanner+Split.swift`).
    var split: Split?
    /// The children of every collection being read, innermost last: each collection is
    /// allocated once, at its final size, when it ends (as `YAMLComposer` does).
    var pairs: [YAMLPair] = []
    var items: [YAMLValue] = []
    /// The keys of the large mappings being read (`operations:`), by depth.
    private var largeMappingKeys: [Int: Set<String>] = [:]

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, split: Split? = nil) {
        self.bytes = bytes
        self.file = file
        self.split = split
    }

    // MARK: Lines

    func byte(at offset: Int) -> UInt8 {
        offset < bytes.count ? bytes[offset] : Self.newline
    }

    var current: UInt8 { byte(at: position) }

    var location: SourceLocation {
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

    mutating func skipSpaces() {
        while current == Self.space { position += 1 }
    }

    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    // MARK: Block collections

    /// The block mapping whose first key starts at the position.
    mutating func blockMapping(depth: Int) throws(NotPlain) -> YAMLValue {
        guard depth < PlainYAMLReader.maximumDepth, indent <= Self.maximumIndent else { throw NotPlain() }
        if let split, position == split.mappingStart { return try readInHalves(split, depth: depth) }
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
                    throw NotPlain() // an empty value
                }
            } else {
                value = try inlineValue()
                try finishLine()
                guard indent <= mappingIndent else { throw NotPlain() } // a value going on below
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
            items.append(try inlineValue()) // `- key: value` is not plain: see `plain`
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
            byte(at: position + 1) == current, byte(at: position + 2) == current
        {
            throw NotPlain()
        }
        while true {
            let byte = current
            if byte == Self.newline || byte >= 0x80 { throw NotPlain() }
            if byte == Self.hash, bytes[position - 1] == Self.space { throw NotPlain() }
            if byte == Self.colon,
                self.byte(at: position + 1) == Self.space || self.byte(at: position + 1) == Self.newline
            {
                break
            }
            position += 1
        }
        guard bytes[position - 1] != Self.space, position - start < Self.maximumKeyLength else { throw NotPlain() }
        let key = YAMLScalar(text: text(start, position), location: location, style: .plain)
        guard key.text != Self.mergeKey else { throw NotPlain() } // the composer refuses it
        position += 1
        return key
    }
}
