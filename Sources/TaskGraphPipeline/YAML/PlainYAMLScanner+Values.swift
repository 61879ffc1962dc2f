/// The values `PlainYAMLScanner` reads on one line: plain and quoted scalars, flow sequences of
/// scalars and flow mappings.
extension PlainYAMLScanner {
    /// A scalar, flow sequence or flow mapping starting at the position, in block context.
    mutating func inlineValue() throws(NotPlain) -> YAMLValue {
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
    static func canStartPlain(_ byte: UInt8, next: UInt8) -> Bool {
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
        var unescaped: [UInt8] = [] // only when the text has `''` or an escape
        var start = position
        while true {
            let byte = current
            if byte == Self.newline || byte >= 0x80 { throw NotPlain() }
            if byte == quote {
                guard quote == UInt8(ascii: "'"), self.byte(at: position + 1) == quote else { break }
                unescaped += bytes[start...position] // `''` is one quote
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
            guard current == Self.colon, byte(at: position + 1) == Self.space,
                key.text.utf8.count < Self.maximumKeyLength,
                key.text != Self.mergeKey, !pairs[first...].contains(where: { $0.key.text == key.text })
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
            guard current != close else { throw NotPlain() } // a trailing comma
        } else if current != close {
            throw NotPlain()
        }
    }

    private mutating func flowScalar() throws(NotPlain) -> YAMLScalar {
        current == UInt8(ascii: "'") || current == UInt8(ascii: "\"") ? try quoted() : try plain(.flowValue)
    }
}
