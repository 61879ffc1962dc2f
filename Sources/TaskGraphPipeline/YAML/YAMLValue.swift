/// A YAML value detached from the parser, with the location of every scalar, sequence and
/// mapping, so every later check can point at what the user wrote.
@usableFromInline package enum YAMLValue: Sendable {
    case scalar(YAMLScalar)
    case sequence([YAMLValue], SourceLocation)
    case mapping([YAMLPair], SourceLocation)

    /// Where the value starts.
    package var location: SourceLocation {
        switch self {
        case .scalar(let scalar): scalar.location
        case .sequence(_, let location), .mapping(_, let location): location
        }
    }

    /// How the value's kind is named in messages: `a string`, `a list`, `a mapping`.
    package var kindDescription: String {
        switch self {
        case .scalar(let scalar): scalar.isNull ? "nothing" : "\(DisplayText.quoted(scalar.text))"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    /// The scalar, if this is one.
    package var scalar: YAMLScalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }
}

/// One key and its value in a YAML mapping; keys are always scalars here.
/// `@usableFromInline`, as its `key.text` and `value`, for `OperationSpec.parameter(_:)`.
@usableFromInline package struct YAMLPair: Sendable {
    @usableFromInline package var key: YAMLScalar
    @usableFromInline package var value: YAMLValue
}

/// A YAML scalar as written.
@usableFromInline package struct YAMLScalar: Sendable {
    /// How the scalar was written.
    package enum Style: Sendable {
        /// No quotes: `key: value`.
        case plain
        /// Quoted on one line, so columns of its characters are known (offset by the quote).
        case quoted
        /// A block (`|`, `>`) or a quoted scalar spanning lines: positions inside are approximate.
        case block
    }

    @usableFromInline package var text: String
    package var location: SourceLocation
    package var style: Style

    /// The scalar `text`, written at `location` in `style`.
    package init(text: String, location: SourceLocation, style: Style) {
        self.text = text
        self.location = location
        self.style = style
    }

    /// `~`, `null` or an empty plain scalar.
    package var isNull: Bool {
        style == .plain && ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// The location of the character at `offset` within the text, where that is known.
    package func location(atOffset offset: Int) -> SourceLocation {
        switch style {
        case .plain: location.advanced(byColumns: offset)
        case .quoted: location.advanced(byColumns: offset + 1)
        case .block: location
        }
    }
}
