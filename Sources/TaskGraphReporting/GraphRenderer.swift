import Foundation
import TaskGraphCore

/// Renders a graph as Graphviz DOT or Mermaid, optionally coloured by a run's outcomes.
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

    /// A renderer for `graph`.
    public init(graph: ExecutionGraph, outcomes: [NodeOutcome]? = nil) {
        self.graph = graph
        self.outcomes = outcomes
    }

    /// The graph in `format`. Edges point from an operation to what it needs; those a file made
    /// (`ExecutionGraph.Node.fileDependencies`) are dashed and labelled with the file.
    public func render(_ format: Format) -> String {
        switch format {
        case .dot: dot()
        case .mermaid: mermaid()
        }
    }

    private func dot() -> String {
        var text = "digraph taskgraph {\n  rankdir=LR;\n  node [shape=box, style=rounded];\n"
        for (index, node) in graph.nodes.enumerated() {
            var attributes = "label=\"\(escape(node.id))\\n\(escape(node.type))\""
            if let color = color(of: index) { attributes += ", style=\"rounded,filled\", fillcolor=\"\(color)\"" }
            text += "  n\(index) [\(attributes)];\n"
        }
        for (index, node) in graph.nodes.enumerated() {
            for dependency in node.dependencies {
                if let file = fileLabel(of: index, dependency: dependency) {
                    text += "  n\(index) -> n\(dependency) [style=dashed, label=\"\(escape(file))\"];\n"
                } else {
                    text += "  n\(index) -> n\(dependency);\n"
                }
            }
        }
        return text + "}\n"
    }

    private func mermaid() -> String {
        var text = "flowchart LR\n"
        for (index, node) in graph.nodes.enumerated() {
            text += "  n\(index)[\"\(escape(node.id))<br/><small>\(escape(node.type))</small>\"]\n"
        }
        for (index, node) in graph.nodes.enumerated() {
            for dependency in node.dependencies {
                if let file = fileLabel(of: index, dependency: dependency) {
                    text += "  n\(index) -. \"\(escape(file))\" .-> n\(dependency)\n"
                } else {
                    text += "  n\(index) --> n\(dependency)\n"
                }
            }
        }
        for index in graph.nodes.indices {
            if let color = color(of: index) { text += "  style n\(index) fill:\(color)\n" }
        }
        return text
    }

    /// The file that made `index` need `dependency`, relative to the pipeline file's directory
    /// when inside it; nil for a `needs:` entry.
    private func fileLabel(of index: Int, dependency: Int) -> String? {
        guard let path = graph.nodes[index].fileDependencies[dependency] else { return nil }
        guard let directory = graph.nodes[index].setup?.pipelineDirectory, path.hasPrefix(directory + "/") else { return path }
        return String(path.dropFirst(directory.count + 1))
    }

    private func color(of index: Int) -> String? {
        outcomes?[index].kind.fillColour
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
