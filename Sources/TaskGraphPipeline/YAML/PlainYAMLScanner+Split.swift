import TaskGraphBasics

/// Reading the large mapping of a large file (`operations:`) in two halves at once, one per
/// core, as the rest of loading does (`ParallelBands.collect`).
///
/// The split is a line about halfway through the mapping that holds one of its keys: in any
/// text the scanner reads, a line at the indentation of the mapping's keys, inside its block, is
/// a key of that mapping. The first half is read up to that line (as if the text ended there),
/// the second from it to the mapping's end; the value is the pairs of both, exactly what one
/// pass gives, and the scanner goes on where the second half ended.
extension PlainYAMLScanner {
    /// Where a large mapping under a root key is split.
    struct Split: Sendable {
        /// The offset of the mapping's first key, and its line and that line's start.
        let mappingStart: Int
        let mappingLine: Int
        let mappingLineStart: Int
        /// The start of the line where the second half begins, and its line number.
        let offset: Int
        let line: Int

        /// The split of the block under the root key whose block holds the middle of `text`,
        /// when that block is a mapping; nil if there is none.
        init?(of text: UnsafeBufferPointer<UInt8>) {
            let middle = text.count / 2
            var line = 1
            var lineStart = 0
            var mapping: (start: Int, line: Int, lineStart: Int, indent: Int)?
            var awaitingMapping = false
            while lineStart < text.count {
                var content = lineStart
                while content < text.count, text[content] == PlainYAMLScanner.space { content += 1 }
                let first = content < text.count ? text[content] : PlainYAMLScanner.newline
                if first != PlainYAMLScanner.newline, first != PlainYAMLScanner.hash {
                    let indent = content - lineStart
                    let next = content + 1 < text.count ? text[content + 1] : PlainYAMLScanner.newline
                    let isKey = PlainYAMLScanner.canStartPlain(first, next: next)
                    if indent == 0 {
                        guard lineStart < middle else { return nil } // the middle's block ended
                        mapping = nil
                        awaitingMapping = true
                    } else if awaitingMapping {
                        awaitingMapping = false
                        if isKey { mapping = (content, line, lineStart, indent) }
                    } else if let mapping, lineStart > middle, indent == mapping.indent, isKey {
                        (mappingStart, mappingLine, mappingLineStart) = (mapping.start, mapping.line, mapping.lineStart)
                        (offset, self.line) = (lineStart, line)
                        return
                    }
                }
                while content < text.count, text[content] != PlainYAMLScanner.newline { content += 1 }
                lineStart = content + 1
                line += 1
            }
            return nil
        }
    }

    /// One half's mapping, where its scanner stopped, and (second half) its keys.
    private struct Half: Sendable {
        var value: YAMLValue
        var position: Int
        var line: Int
        var lineStart: Int
        var indent: Int
        var keys: Set<String>
    }

    /// The text, shared read-only by the two halves.
    private struct SharedText: @unchecked Sendable {
        // Safe: both halves only read it, and `ParallelBands.collect` returns after both are
        // done, while the caller (inside `String.withUTF8`) still holds the text.
        let bytes: UnsafeBufferPointer<UInt8>
    }

    /// The mapping starting at the position (`split.mappingStart`), read in two halves at once.
    mutating func readInHalves(_ split: Split, depth: Int) throws(NotPlain) -> YAMLValue {
        let text = SharedText(bytes: bytes)
        let file = file
        let halves = ParallelBands.collect(count: 2, minimumChunkSize: 1) { range, halves in
            for half in range {
                halves.append(Self.read(half: half, of: split, in: text.bytes, file: file, depth: depth))
            }
        }
        guard case .success(let first)? = halves.first, case .success(let second)? = halves.last,
            case .mapping(let firstPairs, let start) = first.value, case .mapping(let secondPairs, _) = second.value,
            first.indent == -1, !firstPairs.contains(where: { second.keys.contains($0.key.text) })
        else { throw NotPlain() } // a half failed, the first ended before the split, or a key repeats
        (position, line, lineStart, indent) = (second.position, second.line, second.lineStart, second.indent)
        return .mapping(firstPairs + secondPairs, start)
    }

    /// The first half (`half` 0: from the mapping's first key to the split, as if the text ended
    /// there) or the second (from the split to the mapping's end).
    private static func read(
        half: Int, of split: Split, in bytes: UnsafeBufferPointer<UInt8>, file: String, depth: Int
    ) -> Result<Half, NotPlain> {
        var scanner: PlainYAMLScanner
        if half == 0 {
            scanner = PlainYAMLScanner(bytes: UnsafeBufferPointer(rebasing: bytes[..<split.offset]), file: file)
            (scanner.position, scanner.line, scanner.lineStart) = (
                split.mappingLineStart, split.mappingLine, split.mappingLineStart
            )
        } else {
            scanner = PlainYAMLScanner(bytes: bytes, file: file)
            (scanner.position, scanner.line, scanner.lineStart) = (split.offset, split.line, split.offset)
        }
        scanner.skipToContent()
        do {
            let value = try scanner.blockMapping(depth: depth)
            var keys: Set<String> = []
            if half == 1, case .mapping(let pairs, _) = value { keys = Set(pairs.map(\.key.text)) }
            return .success(
                Half(
                    value: value, position: scanner.position, line: scanner.line, lineStart: scanner.lineStart,
                    indent: scanner.indent, keys: keys))
        } catch {
            return .failure(error)
        }
    }
}
