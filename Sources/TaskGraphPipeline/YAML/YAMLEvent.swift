import CYAML

/// One libyaml event, copied out of the parser (with its location and text) so that it can be
/// handed to another thread.
struct YAMLEvent: Sendable {
    /// What the event is; libyaml's other events (document end, stream start) are `other`.
    enum Kind: Sendable {
        case streamEnd, documentStart, scalar, sequenceStart, mappingStart, collectionEnd, alias, other
    }

    var kind: Kind
    /// Where the event starts.
    var location: SourceLocation
    /// A scalar's text, or the anchor an alias names.
    var text = ""
    /// A scalar's style.
    var style = YAMLScalar.Style.plain
    /// The anchor (`&name`) on a scalar, sequence or mapping.
    var anchor: String?

    /// Copies libyaml's `event`, reporting its location in `file`.
    init(_ event: yaml_event_t, file: String) {
        location = Self.location(event.start_mark, file: file)
        switch event.type {
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_SCALAR_EVENT:
            kind = .scalar
            let scalar = event.data.scalar
            text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            style = Self.style(scalar.style, text)
            anchor = Self.string(scalar.anchor)
        case YAML_SEQUENCE_START_EVENT:
            kind = .sequenceStart
            anchor = Self.string(event.data.sequence_start.anchor)
        case YAML_MAPPING_START_EVENT:
            kind = .mappingStart
            anchor = Self.string(event.data.mapping_start.anchor)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT: kind = .collectionEnd
        case YAML_ALIAS_EVENT:
            kind = .alias
            text = Self.string(event.data.alias.anchor) ?? ""
        default: kind = .other
        }
    }

    /// A 0-based libyaml mark as a 1-based location in `file`.
    static func location(_ mark: yaml_mark_t, file: String) -> SourceLocation {
        SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func style(_ style: yaml_scalar_style_t, _ text: String) -> YAMLScalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE:
            text.utf8.contains(UInt8(ascii: "\n")) ? .block : .quoted
        case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE:
            .block
        default:
            .plain
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
