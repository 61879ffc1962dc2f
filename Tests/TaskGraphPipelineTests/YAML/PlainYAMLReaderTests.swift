import Foundation
import Testing

@testable import TaskGraphPipeline

/// `PlainYAMLReader` must give exactly `YAMLComposer`'s value (locations and styles included)
/// for every text it accepts, and accept the way pipelines are usually written.
@Suite struct PlainYAMLReaderTests {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The plain reader's value, rendered, or nil when it leaves the text to the composer. With
    /// `parallelMinimumSize` 0, the mapping in the middle of the text is read in two halves
    /// whenever it can be.
    private static func plain(_ text: String, parallelMinimumSize: Int = 256 * 1024) -> String? {
        var text = text
        var reader = PlainYAMLReader(file: "t.yaml")
        reader.parallelMinimumSize = parallelMinimumSize
        return text.withUTF8 { reader.read($0) }.map(render)
    }

    /// Whether the text's middle mapping can be split.
    private static func splits(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { PlainYAMLScanner.Split(of: $0) } != nil
    }

    /// The composer's value, rendered, when it reads `text` without any diagnostic.
    private static func composed(_ text: String) -> String? {
        guard let (root, diagnostics) = try? YAMLComposer(file: "t.yaml", nodeBudget: 1_000_000).compose(text),
            diagnostics.isEmpty
        else { return nil }
        return root.map(render)
    }

    /// A value with every location and style, one node per line.
    private static func render(_ value: YAMLValue) -> String {
        func location(_ at: TaskGraphPipeline.SourceLocation) -> String { "\(at.line):\(at.column)" }
        func scalar(_ scalar: YAMLScalar) -> String {
            "\(scalar.text.debugDescription) \(scalar.style) \(location(scalar.location))"
        }
        switch value {
        case .scalar(let value):
            return scalar(value)
        case .sequence(let items, let at):
            let rendered: [String] = items.map { render($0) + "\n" }
            return "[ \(location(at))\n\(rendered.joined())]"
        case .mapping(let pairs, let at):
            let rendered: [String] = pairs.map { pair in "\(scalar(pair.key)): \(render(pair.value))\n" }
            return "{ \(location(at))\n\(rendered.joined())}"
        }
    }

    /// Whether the plain reader agrees with the composer on `text` (or leaves it to it), in one
    /// pass and in two halves.
    private static func agrees(_ text: String) -> Bool {
        let whole = plain(text)
        guard whole == plain(text, parallelMinimumSize: 0) else { return false }
        return whole == nil || whole == composed(text)
    }

    @Test func acceptsThePipelinesInTheRepository() throws {
        let files =
            ["pipelines/photos.yaml", "scripts/torture/photos-torture.yaml"]
            + ["hello", "failing", "sleepers", "slow", "stubborn"].map { "Tests/TaskGraphCLITests/Fixtures/\($0).yaml" }
        for file in files {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
            let plain = Self.plain(text)
            #expect(plain != nil, "\(file) is plain YAML")
            #expect(plain == Self.composed(text), "\(file)")
        }
    }

    @Test func acceptsPlainConstructs() {
        let accepted = [
            "a: b\n",
            "a: b",
            "# comment\n\na: b   # comment\n  # indented comment\nc: 'd'\n",
            "a:\n  b: c\n  d:\n    e: f\ng: h\n",
            "a:\n- x\n- 'y'\nb: c\n",
            "a:\n  - x\n  -   [p, q]\n  - {k: v}\n",
            "a: [x, 'y z', \"w\", -1, a b]\nb: []\nc: {}\n",
            "a: {op: exec, command: [sh, -c, 'echo \"$@\"'], needs: [b, c]}\n",
            "a: 'it''s'\nb: \"tab\\there\\\\ \\\"q\\\" \\/\"\nc: \"line\\nbreak\"\n",
            "url: http://example.org/a#b?c=d:e\nx: a[0]{1},2\ny: -x\nz: ~\n",
            "a b: c d  \n",
            "k:    v\n",
        ]
        for text in accepted {
            #expect(Self.plain(text) != nil, "\(text.debugDescription) is plain")
            #expect(Self.plain(text) == Self.composed(text), "\(text.debugDescription)")
        }
    }

    @Test func leavesEverythingElseToTheComposer() {
        let refused = [
            "", "# only a comment\n", "- a\n", "  a: b\n", "---\na: b\n", "a: b\n...\n", "%YAML 1.1\n---\na: b\n",
            "a: &x b\nc: *x\n", "a: !tag b\n", "a: |\n  text\n", "a: >\n  text\n", "a:\n", "a: b\nc:\n",
            "a: b\n  c\n", "a: b\n  c: d\n", "a: b\na: c\n", "a: {b: 1, b: 2}\n", "a:\tb\n", "a: b\r\n",
            "a: caf\u{E9}\n", "a: 'x\n  y'\n", "a: [x,\n  y]\n", "a: [[x]]\n", "a: [{b: c}]\n", "a: {b: {c: d}}\n",
            "a: b: c\n", "a: b:\n", "a: [b: c]\n", "a: {b:c}\n", "a: [x, ]\n", "\"a\": b\n", "a : b\n", "a:b\n",
            "a: 'x'y\n", "a: [x]y\n", "a: \"\\x41\"\n", "a: ? b\n", "a: - b\n", "- a: b\n", "a:\n  - b: c\n",
            "a:\n  -\n", "a:\n  b: c\n d: e\n", "a:\n  - b\n  c: d\n", "a: @b\n", "a: `b`\n", "a: [#b]\n",
            "a: [b #c]\n", "a: x\n- b\n", "<<: {a: b}\n", "a:\n  <<: {b: c}\n", "a: {<<: b}\n", "a: b\u{0}\n",
            "a:\n" + String(repeating: " ", count: 1_700) + "b: c\n",
        ]
        for text in refused {
            #expect(Self.plain(text) == nil, "\(text.debugDescription) is left to the composer")
        }
    }

    /// A large mapping read in two halves at once gives what one pass gives; a key repeated
    /// across the halves leaves the text to the composer.
    @Test func readsALargeMappingInTwoHalves() {
        var text = "version: 1\n# operations follow\noperations:\n\n  # the first\n"
        for index in 0..<3_000 {
            text += "  op\(index):\n    op: exec\n    command: [sh, -c, 'echo \(index)']  # a comment\n"
            if index > 0 { text += "    needs:\n    - op\(index - 1)\n" }
        }
        text += "name: last\n"
        #expect(Self.splits(text))
        let halves = Self.plain(text, parallelMinimumSize: 0)
        #expect(halves != nil)
        #expect(halves == Self.composed(text))
        #expect(halves == Self.plain(text, parallelMinimumSize: .max))
        let repeated = text.replacingOccurrences(of: "  op2999:", with: "  op1:")
        #expect(Self.plain(repeated, parallelMinimumSize: 0) == nil)
        #expect(Self.plain(repeated, parallelMinimumSize: .max) == nil)
    }

    /// Random pipeline-like texts, most with a tricky character or two inserted somewhere:
    /// whatever the plain reader accepts, the composer reads to the same value without a
    /// diagnostic.
    @Test func agreesWithTheComposerOnRandomTexts() {
        var generator = SplitMix(seed: 12)
        let pieces = [
            "a", ":", ": ", " ", "  ", "#", " #", "-", "- ", "[", "]", "{", "}", ",", ", ", "'", "''", "\"", "\\",
            "\\n", "\\x", "~", "${item}", "/", "?", "!", "&", "*", "|", ">", "%", "@", "\u{E9}", "\t", "\n", "\n  ",
        ]
        var accepted = 0
        var split = 0
        for _ in 0..<6_000 {
            var text = Array(RandomDocument.mapping(indent: 0, depth: 0, using: &generator).utf8)
            for _ in 0..<generator.next(below: 3) {
                let piece = pieces[generator.next(below: pieces.count)]
                text.insert(contentsOf: piece.utf8, at: generator.next(below: text.count + 1))
            }
            let document = String(decoding: text, as: UTF8.self)
            if Self.plain(document) != nil { accepted += 1 }
            if Self.splits(document) { split += 1 }
            #expect(Self.agrees(document), "\(document.debugDescription)")
        }
        #expect(accepted > 1_500) // the texts do reach the plain reader's paths,
        #expect(split > 300) // including reading in two halves
    }
}

/// Pipeline-like YAML made at random: block mappings and sequences, flow collections, quoted
/// scalars and comments.
private enum RandomDocument {
    static let values = [
        "v", "a b", "'q r'", "'it''s'", "\"d\\\"q\\n\"", "[a, b]", "[]", "{}", "{k: v, l: [m, 'n']}", "-1",
        "http://h/p#f", "~",
    ]

    static func mapping(indent: Int, depth: Int, using generator: inout SplitMix) -> String {
        let pad = String(repeating: " ", count: indent)
        var text = ""
        for key in 0..<generator.next(below: 3) + 1 {
            if generator.next(below: 5) == 0 { text += pad + "# comment\n" }
            text += pad + "k\(key):"
            switch depth < 3 ? generator.next(below: 6) : 0 {
            case 3: text += "\n" + mapping(indent: indent + 2, depth: depth + 1, using: &generator)
            case 4: text += "\n" + sequence(indent: indent + 2 * generator.next(below: 2), using: &generator)
            default:
                text +=
                    " " + values[generator.next(below: values.count)] + (generator.next(below: 4) == 0 ? " # c" : "")
                    + "\n"
            }
        }
        return text
    }

    static func sequence(indent: Int, using generator: inout SplitMix) -> String {
        let pad = String(repeating: " ", count: indent)
        return (0...generator.next(below: 3)).map { _ in pad + "- " + values[generator.next(below: values.count)] + "\n"
        }.joined()
    }
}

/// A small deterministic random number generator (SplitMix64).
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
