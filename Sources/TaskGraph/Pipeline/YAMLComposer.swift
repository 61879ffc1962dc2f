import CYAML

/// Builds a `YAMLValue` tree from libyaml's event stream, iteratively (an explicit stack, so
/// nesting cannot overflow the call stack), with every node's location.
///
/// Unlike a generic YAML loader it knows what a pipeline needs: every scalar stays a string
/// (types are checked later against declarations), duplicate keys are reported at the second
/// occurrence and reading goes on, and aliases are charged against a node budget so an alias
/// bomb is refused after a bounded amount of work.
struct YAMLComposer {
    let file: String
    /// The most nodes the document may expand to, counting every alias use in full.
    let nodeBudget: Int

    /// A sequence or mapping being read; mutated in place on the stack. Its children wait on the
    /// composer's shared child stacks (`Children`) from `start` on, so a collection is allocated
    /// once, at its final size, when it ends.
    private struct Frame {
        let isMapping: Bool
        let location: SourceLocation
        let anchor: String?
        /// Where this collection's children start on the shared stack of its kind.
        let start: Int
        /// A mapping key waiting for its value; a duplicate key's value is read and dropped.
        var pendingKey: YAMLScalar?
        var dropsValue = false
        /// Positions of keys on the shared pair stack by text, built only once a mapping is
        /// large (see `firstOccurrence`).
        var keyIndex: [String: Int] = [:]
        /// Nodes in this collection so far, itself included.
        var size = 1
    }

    /// The children of every open collection, innermost last.
    private struct Children {
        var items: [YAMLValue] = []
        var pairs: [YAMLPair] = []

        /// A new frame whose children start at the top of the right stack.
        func frame(isMapping: Bool, at location: SourceLocation, anchor: String?) -> Frame {
            Frame(isMapping: isMapping, location: location, anchor: anchor, start: isMapping ? pairs.count : items.count)
        }

        /// The finished collection of `frame`, its children taken off the stack.
        mutating func finish(_ frame: Frame) -> YAMLValue {
            if frame.isMapping {
                defer { pairs.removeSubrange(frame.start...) }
                return .mapping(Array(pairs[frame.start...]), frame.location)
            }
            defer { items.removeSubrange(frame.start...) }
            return .sequence(Array(items[frame.start...]), frame.location)
        }
    }

    /// A failure that stops reading.
    struct Failure: Error {
        let diagnostic: Diagnostic
    }

    /// The document's root (nil for a stream without documents) and the problems found along
    /// the way that did not stop reading (duplicate keys).
    func compose(_ text: String) throws(Failure) -> (root: YAMLValue?, diagnostics: [Diagnostic]) {
        var bytes = Array(text.utf8)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw Failure(diagnostic: .error("cannot start the YAML parser", at: location(line: 0, column: 0)))
        }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeMutableBufferPointer { buffer throws(Failure) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return try run(&parser)
        }
    }

    private func run(_ parser: inout yaml_parser_t) throws(Failure) -> (root: YAMLValue?, diagnostics: [Diagnostic]) {
        var stack: [Frame] = []
        var children = Children()
        var anchors: [String: (value: YAMLValue, size: Int)] = [:]
        var diagnostics: [Diagnostic] = []
        var root: YAMLValue?
        var documents = 0
        var spent = 0
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { throw Failure(diagnostic: parseError(parser)) }
            defer { yaml_event_delete(&event) }
            let start = location(event.start_mark)
            var completed: (value: YAMLValue, size: Int, anchor: String?)?
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return (root, diagnostics)
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw Failure(diagnostic: .error("a pipeline file holds one YAML document; found a second one", at: start))
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let value = YAMLValue.scalar(YAMLScalar(text: text, location: start, style: style(scalar.style, text)))
                completed = (value, 1, string(scalar.anchor))
            case YAML_SEQUENCE_START_EVENT:
                stack.append(children.frame(isMapping: false, at: start, anchor: string(event.data.sequence_start.anchor)))
            case YAML_MAPPING_START_EVENT:
                stack.append(children.frame(isMapping: true, at: start, anchor: string(event.data.mapping_start.anchor)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let frame = stack.removeLast()
                completed = (children.finish(frame), frame.size, frame.anchor)
            case YAML_ALIAS_EVENT:
                let name = string(event.data.alias.anchor) ?? ""
                guard let anchored = anchors[name] else {
                    throw Failure(diagnostic: .error("alias '*\(name)' refers to no anchor defined before it", at: start))
                }
                completed = (anchored.value, anchored.size, nil)
            default:
                break
            }
            guard let (value, size, anchor) = completed else { continue }
            spent += size
            if spent > nodeBudget {
                throw Failure(diagnostic: .error(
                    "YAML aliases expand to more than \(nodeBudget) nodes; refusing to read an alias bomb",
                    at: location(line: 0, column: 0)))
            }
            if let anchor { anchors[anchor] = (value, size) }
            if stack.isEmpty {
                root = value
            } else {
                attach(value, size: size, to: &stack[stack.count - 1], children: &children, diagnostics: &diagnostics)
            }
        }
    }

    /// Adds a finished value to the collection being built.
    private func attach(
        _ value: YAMLValue, size: Int, to frame: inout Frame, children: inout Children,
        diagnostics: inout [Diagnostic]
    ) {
        frame.size += size
        guard frame.isMapping else {
            children.items.append(value)
            return
        }
        if let key = frame.pendingKey {
            if !frame.dropsValue { children.pairs.append(YAMLPair(key: key, value: value)) }
            frame.pendingKey = nil
            frame.dropsValue = false
            return
        }
        guard let key = value.scalar else {
            diagnostics.append(.error("mapping keys must be plain strings, not \(value.kindDescription)", at: value.location))
            frame.pendingKey = YAMLScalar(text: "", location: value.location, style: .block)
            frame.dropsValue = true
            return
        }
        if let first = firstOccurrence(of: key, in: &frame, pairs: children.pairs) {
            diagnostics.append(.error(
                "duplicate key '\(key.text)' in the same mapping (first at line \(first.line))", at: key.location))
            frame.dropsValue = true
        }
        frame.pendingKey = key
    }

    /// The mappings with at most this many keys find duplicates by a linear scan: most mappings
    /// in a pipeline have a handful of keys, and hashing them into a dictionary per mapping cost
    /// more than the scan.
    private static let linearKeyLimit = 16

    /// Where `key` first appeared in the mapping of `frame`, whose pairs so far are on top of
    /// `pairs` (a duplicate key's pair is never stored, so each earlier key appears once there).
    private func firstOccurrence(of key: YAMLScalar, in frame: inout Frame, pairs: [YAMLPair]) -> SourceLocation? {
        let count = pairs.count - frame.start
        if count < Self.linearKeyLimit {
            return pairs[frame.start...].first { $0.key.text == key.text }?.key.location
        }
        if frame.keyIndex.isEmpty {
            frame.keyIndex.reserveCapacity(count * 2)
            for position in frame.start..<pairs.count - 1 { frame.keyIndex[pairs[position].key.text] = position }
        }
        frame.keyIndex[pairs[pairs.count - 1].key.text] = pairs.count - 1
        return frame.keyIndex[key.text].map { pairs[$0].key.location }
    }

    private func style(_ style: yaml_scalar_style_t, _ text: String) -> YAMLScalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE:
            text.utf8.contains(UInt8(ascii: "\n")) ? .block : .quoted
        case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE:
            .block
        default:
            .plain
        }
    }

    private func parseError(_ parser: yaml_parser_t) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        if parser.error == YAML_READER_ERROR {
            return .error("invalid YAML text: \(problem)", at: location(line: 0, column: 0))
        }
        var context = ""
        if let text = parser.context {
            context = " (\(String(cString: text)) at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1))"
        }
        return .error("invalid YAML: \(problem)\(context)", at: location(parser.problem_mark))
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        location(line: Int(mark.line), column: Int(mark.column))
    }

    private func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line + 1, column: column + 1)
    }
}
