import Foundation
import TaskGraphCore

/// Renders a graph as Graphviz DOT or Mermaid, optionally coloured by a run's outcomes.
///
/// The expansion of a `foreach: {from: index}` (`index[*]`) is drawn as what it adds: one node
/// per operation taking items from `index` (`download[*]`, `FanOutTemplate`), with the number of
/// its instances when a run is known (`instanceCounts`), needing `index` (or the template it
/// needs) and needed by the fan-ins.
public struct GraphRenderer {
    /// The output format.
    public enum Format: String, CaseIterable, Sendable {
        case dot
        case mermaid
    }

    /// The graph to draw.
    public let graph: ExecutionGraph
    /// Outcomes by node index, to colour nodes after a run.
    public var outcomes: [NodeOutcome]?
    /// How many instances each template operation had in a run (by operation id), if known.
    public var instanceCounts: [String: Int]?

    /// A renderer for `graph`.
    public init(graph: ExecutionGraph, outcomes: [NodeOutcome]? = nil) {
        self.graph = graph
        self.outcomes = outcomes
    }

    /// How many instances each template operation of `graph` had among `ids` (a run's node ids):
    /// `download[a]`, `download[b]` … count for `download`.
    public static func instanceCounts(of graph: ExecutionGraph, among ids: some Sequence<String>) -> [String: Int] {
        let templates = Set(graph.nodes.indices.flatMap { graph.fanOutTemplates(addedBy: $0).map(\.operation) })
        var counts = Dictionary(uniqueKeysWithValues: templates.map { ($0, 0) })
        for id in ids {
            guard let bracket = id.firstIndex(of: "["), id.last == "]", !id.hasSuffix("[*]") else { continue }
            let operation = String(id[..<bracket])
            if counts[operation] != nil { counts[operation]! += 1 }
        }
        return counts
    }

    /// The graph in `format`. Edges point from an operation to what it needs; those a file made
    /// (`ExecutionGraph.Node.fileDependencies`) are dashed and labelled with the file, as is the
    /// edge from a template to the operation it takes items from (`items`).
    public func render(_ format: Format) -> String {
        let drawing = layout()
        switch format {
        case .dot: return dot(drawing)
        case .mermaid: return mermaid(drawing)
        }
    }

    /// A node as drawn: its name in the output, label lines and fill colour.
    private struct Box {
        let name: String
        let lines: [String]
        let color: String?
    }

    /// An edge as drawn, dashed with a label when `label` is set.
    private struct Edge {
        let from: String
        let to: String
        let label: String?
    }

    private func layout() -> (boxes: [Box], edges: [Edge]) {
        let nodes = graph.nodes
        let templates = nodes.indices.map { graph.fanOutTemplates(addedBy: $0) }
        var boxes: [Box] = []
        var edges: [Edge] = []
        for (index, node) in nodes.enumerated() where templates[index].isEmpty {
            boxes.append(Box(name: "n\(index)", lines: [node.id, node.type], color: color(of: index)))
        }
        for (index, node) in nodes.enumerated() {
            if !templates[index].isEmpty {
                edges += templateEdges(of: index, templates[index])
                continue
            }
            for dependency in node.dependencies {
                if !templates[dependency].isEmpty {
                    let operation = Self.operation(of: node.id)
                    for (offset, template) in templates[dependency].enumerated()
                    where template.neededBy.contains(operation) {
                        edges.append(Edge(from: "n\(index)", to: "n\(dependency)t\(offset)", label: nil))
                    }
                } else {
                    edges.append(
                        Edge(
                            from: "n\(index)", to: "n\(dependency)", label: fileLabel(of: index, dependency: dependency)
                        ))
                }
            }
        }
        for (index, added) in templates.enumerated() {
            for (offset, template) in added.enumerated() {
                let count = instanceCounts?[template.operation].map { "instances: \($0)" }
                boxes.append(
                    Box(
                        name: "n\(index)t\(offset)",
                        lines: [
                            "\(template.operation)[*]", template.type,
                            count ?? "instances: decided when \(template.source) runs",
                        ],
                        color: nil))
            }
        }
        return (boxes, edges)
    }

    /// The edges of the templates the expansion `index` adds: to the templates and operations
    /// they need, and to the source for those that need no other template.
    private func templateEdges(of index: Int, _ templates: [FanOutTemplate]) -> [Edge] {
        let offsets = Dictionary(uniqueKeysWithValues: templates.enumerated().map { ($1.operation, $0) })
        var edges: [Edge] = []
        for (offset, template) in templates.enumerated() {
            let name = "n\(index)t\(offset)"
            if !template.needs.contains(where: { offsets[$0] != nil }), let source = graph.index(of: template.source) {
                edges.append(Edge(from: name, to: "n\(source)", label: "items"))
            }
            for need in template.needs {
                if let other = offsets[need] {
                    edges.append(Edge(from: name, to: "n\(index)t\(other)", label: nil))
                } else {
                    for (node, candidate) in graph.nodes.enumerated() where Self.operation(of: candidate.id) == need {
                        edges.append(Edge(from: name, to: "n\(node)", label: nil))
                    }
                }
            }
        }
        return edges
    }

    private func dot(_ drawing: (boxes: [Box], edges: [Edge])) -> String {
        var text = "digraph taskgraph {\n  rankdir=LR;\n  node [shape=box, style=rounded];\n"
        for box in drawing.boxes {
            var attributes = "label=\"\(box.lines.map(escape).joined(separator: "\\n"))\""
            if let color = box.color { attributes += ", style=\"rounded,filled\", fillcolor=\"\(color)\"" }
            text += "  \(box.name) [\(attributes)];\n"
        }
        for edge in drawing.edges {
            if let label = edge.label {
                text += "  \(edge.from) -> \(edge.to) [style=dashed, label=\"\(escape(label))\"];\n"
            } else {
                text += "  \(edge.from) -> \(edge.to);\n"
            }
        }
        return text + "}\n"
    }

    private func mermaid(_ drawing: (boxes: [Box], edges: [Edge])) -> String {
        var text = "flowchart LR\n"
        for box in drawing.boxes {
            let lines = [escape(box.lines[0])] + box.lines.dropFirst().map { "<small>\(escape($0))</small>" }
            text += "  \(box.name)[\"\(lines.joined(separator: "<br/>"))\"]\n"
        }
        for edge in drawing.edges {
            if let label = edge.label {
                text += "  \(edge.from) -. \"\(escape(label))\" .-> \(edge.to)\n"
            } else {
                text += "  \(edge.from) --> \(edge.to)\n"
            }
        }
        for box in drawing.boxes {
            if let color = box.color { text += "  style \(box.name) fill:\(color)\n" }
        }
        return text
    }

    /// The operation of the node `id`: `download` for `download[sunset]`.
    private static func operation(of id: String) -> String {
        String(id.prefix { $0 != "[" })
    }

    /// The file that made `index` need `dependency`, relative to the pipeline file's directory
    /// when inside it; nil for a `needs:` entry.
    private func fileLabel(of index: Int, dependency: Int) -> String? {
        guard let path = graph.nodes[index].fileDependencies[dependency] else { return nil }
        guard let directory = graph.nodes[index].setup?.pipelineDirectory, path.hasPrefix(directory + "/") else {
            return path
        }
        return String(path.dropFirst(directory.count + 1))
    }

    private func color(of index: Int) -> String? {
        outcomes?[index].kind.fillColour
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
