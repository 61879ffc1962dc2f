/// Turns each operation's `foreach:` into its items: lists as written, the files a glob
/// matches (listed now, relative to the pipeline file; a pattern used by several operations is
/// listed once, so they all see the same files), every combination of a matrix's axes but
/// those excluded. Blocking (lists directories).
package struct ForeachResolver {
    /// Directory of the pipeline file: what patterns are relative to.
    package let pipelineDirectory: String

    /// A resolver of patterns relative to `pipelineDirectory`.
    package init(pipelineDirectory: String) {
        self.pipelineDirectory = pipelineDirectory
    }

    /// The items of every operation (nil for one without `foreach`), in declaration order.
    package func items(of operations: [OperationSpec], diagnostics: inout [Diagnostic]) -> [[ForeachItem]?] {
        var globs = GlobItems(pipelineDirectory: pipelineDirectory)
        return operations.map { operation in
            operation.foreach.map {
                items(of: $0, subject: "operation '\(operation.id.value)'", globs: &globs, diagnostics: &diagnostics)
            }
        }
    }

    private func items(
        of foreach: ForeachSpec, subject: String, globs: inout GlobItems, diagnostics: inout [Diagnostic]
    ) -> [ForeachItem] {
        switch foreach.kind {
        case .single(let source):
            return items(of: source, subject: subject, globs: &globs, diagnostics: &diagnostics)
        case .matrix(let axes, let exclude):
            let axisItems = axes.map { axis in
                (
                    name: axis.name.value,
                    items: items(of: axis.source, subject: subject, globs: &globs, diagnostics: &diagnostics)
                )
            }
            // An entry names each axis's item by its id or its value.
            return Self.combinations(of: axisItems).filter { item in
                !exclude.contains { exclusion in
                    exclusion.allSatisfy {
                        item.axisID($0.axis.value) == $0.item || item.fields[$0.axis.value] == $0.item
                    }
                }
            }
        }
    }

    private func items(
        of source: ForeachSpec.Source, subject: String, globs: inout GlobItems, diagnostics: inout [Diagnostic]
    ) -> [ForeachItem] {
        switch source {
        case .items(let items): items
        case .glob(let glob): globs.items(of: glob, subject: subject, diagnostics: &diagnostics)
        // Known once the operation named has run (`FanOutExpansion`).
        case .from: []
        }
    }

    /// Every combination of one item per axis, the first axis varying slowest: its id is the
    /// axes' ids joined with `,`, its fields each axis's value and the axis's own fields
    /// (`photo`, `photo.stem` …).
    package static func combinations(of axes: [(name: String, items: [ForeachItem])]) -> [ForeachItem] {
        var combined = [ForeachItem(id: "", value: "", fields: [:])]
        for (index, axis) in axes.enumerated() {
            combined = combined.flatMap { partial in
                axis.items.map { item in
                    var next = partial
                    next.id = index == 0 ? item.id : partial.id + "," + item.id
                    next.value = next.id
                    next.fields[axis.name] = item.value
                    for (field, value) in item.fields { next.fields[axis.name + "." + field] = value }
                    next.axes.append((axis.name, item.id))
                    return next
                }
            }
        }
        return axes.isEmpty ? [] : combined
    }
}
