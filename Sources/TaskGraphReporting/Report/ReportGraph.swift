import TaskGraphCore

/// The graph section of the HTML report: an SVG drawn with `GraphLayout`, nodes coloured by
/// outcome and the critical path highlighted. Up to `maximumNodes` operations are drawn one box
/// each; a larger run is drawn one box per operation template (`tilt[*]`, the id before `[`) with
/// its counts, and a click on a template lists its operations in the table.
struct ReportGraph {
    /// One box of the drawing.
    private struct Box {
        var label: String
        var detail: String
        var title: String
        var colour: String
        var critical: Bool
        /// The table filter a click applies: the template prefix or the exact id.
        var filter: String
    }

    /// Which outcome colours a template box: the first of these any of its operations had.
    private static let colourOrder: [NodeOutcome.Kind] = [
        .failed, .timedOut, .cancelled, .succeeded, .cached, .skipped, .bypassed, .notStarted,
    ]

    /// Above this many operations the graph is drawn by template.
    static let maximumNodes = 500

    private static let boxWidth = 190
    private static let boxHeight = 34
    private static let columnGap = 56
    private static let rowGap = 10

    private var boxes: [Box] = []
    private var dependencies: [[Int]] = []
    private var criticalEdges: Set<[Int]> = []
    /// Whether the boxes stand for templates.
    private(set) var byTemplate = false

    /// The drawing of `run`, whose critical path is `criticalPath` (indices into its operations).
    init(run: RecordedRun, criticalPath: [Int]) {
        let onPath = Set(criticalPath)
        let index = Dictionary(
            run.operations.indices.map { (run.operations[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        let needs = run.operations.map { $0.needs.compactMap { index[$0] } }
        let pathEdges = Set(zip(criticalPath.dropFirst(), criticalPath).map { [$0.0, $0.1] })
        guard run.operations.count > Self.maximumNodes else {
            boxes = run.operations.enumerated().map { position, operation in
                Box(
                    label: operation.id, detail: "\(operation.type) · \(operation.outcome.label)",
                    title: operation.id + (operation.reason.isEmpty ? "" : "\n" + operation.reason),
                    colour: operation.outcome.fillColour, critical: onPath.contains(position),
                    filter: "=" + operation.id)
            }
            dependencies = needs
            criticalEdges = pathEdges
            return
        }
        byTemplate = true
        var templateIndex: [String: Int] = [:]
        var members: [[Int]] = []
        let templateOf = run.operations.map { operation -> Int in
            let name = Self.template(of: operation.id)
            if let known = templateIndex[name] { return known }
            templateIndex[name] = members.count
            members.append([])
            return members.count - 1
        }
        for (position, template) in templateOf.enumerated() { members[template].append(position) }
        boxes = members.map { positions in
            let first = run.operations[positions[0]]
            let name = Self.template(of: first.id)
            let counts = positions.reduce(into: [NodeOutcome.Kind: Int]()) {
                $0[run.operations[$1].outcome, default: 0] += 1
            }
            let countText = NodeOutcome.Kind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.label)" } }
                .joined(separator: ", ")
            let shown = positions.count > 1 || first.id != name ? name + "[*] ×\(positions.count)" : name
            return Box(
                label: shown, detail: "\(first.type) · " + countText, title: shown + "\n" + countText,
                colour: (Self.colourOrder.first { counts[$0] != nil } ?? .notStarted).fillColour,
                critical: positions.contains { onPath.contains($0) }, filter: shown == name ? "=" + name : name + "[")
        }
        var templateNeeds = Array(repeating: Set<Int>(), count: members.count)
        for (position, targets) in needs.enumerated() {
            for target in targets where templateOf[target] != templateOf[position] {
                templateNeeds[templateOf[position]].insert(templateOf[target])
            }
        }
        dependencies = templateNeeds.map { $0.sorted() }
        criticalEdges = Set(pathEdges.map { [templateOf[$0[0]], templateOf[$0[1]]] })
    }

    /// The id before its first `[`: the operation a `foreach` instance comes from.
    static func template(of id: String) -> String {
        id.firstIndex(of: "[").map { String(id[..<$0]) } ?? id
    }

    /// The SVG element.
    func svg() -> String {
        let layout = GraphLayout(dependencies: dependencies)
        let width = max(layout.columnCount, 1) * (Self.boxWidth + Self.columnGap)
        let height = max(layout.rowCount, 1) * (Self.boxHeight + Self.rowGap) + Self.rowGap
        func origin(_ node: Int) -> (x: Int, y: Int) {
            (
                layout.column[node] * (Self.boxWidth + Self.columnGap) + Self.columnGap / 2,
                layout.row[node] * (Self.boxHeight + Self.rowGap) + Self.rowGap
            )
        }
        var edges = ""
        for (node, needs) in dependencies.enumerated() {
            for need in needs {
                let from = origin(need)
                let to = origin(node)
                let (x1, y1, x2, y2) = (
                    from.x + Self.boxWidth, from.y + Self.boxHeight / 2, to.x, to.y + Self.boxHeight / 2
                )
                let middle = (x1 + x2) / 2
                let critical = criticalEdges.contains([node, need]) ? " class=\"critical\"" : ""
                edges += "<path\(critical) d=\"M\(x1),\(y1) C\(middle),\(y1) \(middle),\(y2) \(x2),\(y2)\"/>"
            }
        }
        var nodes = ""
        for (node, box) in boxes.enumerated() {
            let (x, y) = origin(node)
            let critical = box.critical ? " critical" : ""
            nodes +=
                "<g class=\"node\(critical)\" data-filter=\"\(HTMLText.escape(box.filter))\" "
                + "transform=\"translate(\(x),\(y))\">"
                + "<title>\(HTMLText.escape(box.title))</title>"
                + "<rect width=\"\(Self.boxWidth)\" height=\"\(Self.boxHeight)\" rx=\"5\" fill=\"\(box.colour)\"/>"
                + "<text x=\"6\" y=\"14\" class=\"id\">\(HTMLText.escape(Self.clipped(box.label, 28)))</text>"
                + "<text x=\"6\" y=\"28\" class=\"detail\">\(HTMLText.escape(Self.clipped(box.detail, 34)))</text></g>"
        }
        return "<svg id=\"graph-svg\" width=\"\(width)\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(width) \(height)\"><g class=\"edges\">\(edges)</g><g class=\"nodes\">\(nodes)</g></svg>"
    }

    private static func clipped(_ text: String, _ length: Int) -> String {
        text.count > length ? String(text.prefix(length - 1)) + "…" : text
    }
}
