/// Pairing with matrices: a matrix operation needing a `foreach` operation pairs on the first
/// of its axes whose every item is an item of that operation (`thumb[mountains,320]` needs
/// `load[mountains]`); needing a matrix operation, on that operation's axes, which it must
/// have too. A note says which axis paired, an error why none could.
extension InstanceExpansion {
    /// How an item of `source` names the item of `target` it pairs with (both have `foreach`),
    /// or nil, with an error, when they cannot pair.
    package func pairingKey(
        _ source: Int, to target: Int, at location: SourceLocation, operations: [OperationSpec],
        diagnostics: inout [Diagnostic]
    ) -> ((ForeachItem) -> String)? {
        let sourceID = operations[source].id.value
        let targetID = operations[target].id.value
        switch (operations[source].foreach?.matrixAxes, operations[target].foreach?.matrixAxes) {
        case (nil, nil):
            return { $0.id }
        case (let axes?, nil):
            let targetIDs = Set((items(of: target) ?? []).map(\.id))
            let sourceItems = items(of: source) ?? []
            var reasons: [String] = []
            for axis in axes {
                if let stray = sourceItems.lazy.compactMap({ $0.axisID(axis) }).first(where: { !targetIDs.contains($0) }
                ) {
                    reasons.append("axis '\(axis)' has '\(stray)'")
                    continue
                }
                if !sourceItems.isEmpty {
                    diagnostics.append(
                        .note("operation '\(sourceID)' pairs with '\(targetID)' on axis '\(axis)'", at: location))
                }
                return { $0.axisID(axis) ?? "" }
            }
            diagnostics.append(
                .error(
                    "cannot pair matrix operation '\(sourceID)' with '\(targetID)': no axis has only items of "
                        + "'\(targetID)' "
                        + "(\(reasons.joined(separator: ", ")))",
                    at: location))
            return nil
        case (let axes?, let targetAxes?):
            let missing = targetAxes.filter { !axes.contains($0) }
            guard missing.isEmpty else {
                diagnostics.append(
                    .error(
                        "cannot pair matrix operation '\(sourceID)' with matrix operation '\(targetID)': '\(sourceID)' "
                            + "has no axis "
                            + missing.map { "'\($0)'" }.joined(separator: ", "),
                        at: location))
                return nil
            }
            if targetAxes != axes {
                let names = targetAxes.map { "'\($0)'" }.joined(separator: ", ")
                diagnostics.append(
                    .note(
                        "operation '\(sourceID)' pairs with '\(targetID)' on "
                            + "\(targetAxes.count == 1 ? "axis" : "axes") \(names)",
                        at: location))
            }
            return { item in targetAxes.map { item.axisID($0) ?? "" }.joined(separator: ",") }
        case (nil, _?):
            diagnostics.append(
                .error(
                    "cannot pair '\(sourceID)' with matrix operation '\(targetID)' item by item: give '\(sourceID)' "
                        + "a matrix "
                        + "with the axes of '\(targetID)', or need '\(targetID)' from an operation without 'foreach'",
                    at: location))
            return nil
        }
    }
}
