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
            Frame(
                isMapping: isMapping, location: location, anchor: anchor,
                start: isMapping ? pairs.count : items.count)
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
    /// the way that did not stop reading (duplicate keys). libyaml parses on another thread
    /// meanwhile (`YAMLEventStream`).
    func compose(_ text: String) throws(Failure) -> (root: YAMLValue?, diagnostics: [Diagnostic]) {
        let events = YAMLEventStream(text: text, file: file)
        defer { events.close() }
        var composition = Composition()
        while true {
            let batch = try events.next().get()
            for index in batch.indices { // not `for event in`: that copies every event
                if let root = try compose(batch[index], into: &composition) { return root }
            }
        }
    }

    /// What has been composed so far.
    private struct Composition {
        var stack: [Frame] = []
        var children = Children()
        var anchors: [String: (value: YAMLValue, size: Int)] = [:]
        var diagnostics: [Diagnostic] = []
        var root: YAMLValue?
        var documents = 0
        var spent = 0
    }

    /// Adds `event` to the composition; at the stream's end, the finished document.
    private func compose(
        _ event: YAMLEvent, into composition: inout Composition
    ) throws(Failure) -> (root: YAMLValue?, diagnostics: [Diagnostic])? {
        let start = event.location
        var completed: (value: YAMLValue, size: Int, anchor: String?)?
        switch event.kind {
        case .streamEnd:
            return (composition.root, composition.diagnostics)
        case .documentStart:
            composition.documents += 1
            if composition.documents > 1 {
                throw Failure(
                    diagnostic: .error("a pipeline file holds one YAML document; found a second one", at: start))
            }
        case .scalar:
            completed = (.scalar(YAMLScalar(text: event.text, location: start, style: event.style)), 1, event.anchor)
        case .sequenceStart, .mappingStart:
            composition.stack.append(
                composition.children.frame(
                    isMapping: event.kind == .mappingStart, at: start, anchor: event.anchor))
        case .collectionEnd:
            let frame = composition.stack.removeLast()
            completed = (composition.children.finish(frame), frame.size, frame.anchor)
        case .alias:
            guard let anchored = composition.anchors[event.text] else {
                throw Failure(
                    diagnostic: .error("alias '*\(event.text)' refers to no anchor defined before it", at: start))
            }
            completed = (anchored.value, anchored.size, nil)
        case .other:
            break
        }
        guard let (value, size, anchor) = completed else { return nil }
        composition.spent += size
        if composition.spent > nodeBudget {
            throw Failure(
                diagnostic: .error(
                    "YAML aliases expand to more than \(nodeBudget) nodes; refusing to read an alias bomb",
                    at: SourceLocation(file: file, line: 1, column: 1)))
        }
        if let anchor { composition.anchors[anchor] = (value, size) }
        if composition.stack.isEmpty {
            composition.root = value
        } else {
            attach(
                value, size: size, to: &composition.stack[composition.stack.count - 1],
                children: &composition.children, diagnostics: &composition.diagnostics)
        }
        return nil
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
            diagnostics.append(
                .error("mapping keys must be plain strings, not \(value.kindDescription)", at: value.location))
            frame.pendingKey = YAMLScalar(text: "", location: value.location, style: .block)
            frame.dropsValue = true
            return
        }
        if key.style == .plain, key.text == "<<" {
            diagnostics.append(
                .error(
                    "YAML merge keys ('<<') are not supported; write the keys out, or put shared settings under "
                        + "'defaults'",
                    at: key.location))
            frame.dropsValue = true
        } else if let first = firstOccurrence(of: key, in: &frame, pairs: children.pairs) {
            diagnostics.append(
                .error(
                    "duplicate key \(DisplayText.quoted(key.text)) in the same mapping (first at line \(first.line))",
                    at: key.location))
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
}
