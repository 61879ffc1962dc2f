/// What differs between the key components an operation had in the last run and those it has
/// now: the first difference by the order below, as a cache reason and its detail.
///
/// The order puts the cause a user acts on first: the operation's version, then its command,
/// parameters, program, environment, files and, last, its inputs (whose own change is traced
/// to its root cause separately).
struct KeyChange: Hashable, Sendable {
    /// The reason, from `CacheDecision.Reason`.
    var reason: CacheDecision.Reason
    /// What changed, e.g. `intensity 0.8 -> 0.7`.
    var detail: String

    /// The parameters of `exec` that make up its command.
    private static let commandParameters: Set<String> = ["command", "cwd"]

    /// The first difference between `previous` and `current`, or nil when they are equal.
    static func between(_ previous: KeyComponents, _ current: KeyComponents) -> KeyChange? {
        guard previous != current else { return nil }
        if previous["operation"] != current["operation"] { return KeyChange(reason: .new, detail: "") }
        if previous["version"] != current["version"] {
            return KeyChange(
                reason: .versionChanged, detail: "\(previous["version"] ?? "none") -> \(current["version"] ?? "none")")
        }
        let names = Self.changedNames(previous, current)
        for name in names where name.hasPrefix("parameter.") {
            let parameter = String(name.dropFirst("parameter.".count))
            if commandParameters.contains(parameter) && current["operation"] == "exec" {
                return KeyChange(reason: .commandChanged, detail: "")
            }
            let before = previous[name] ?? "(unset)"
            let after = current[name] ?? "(unset)"
            return KeyChange(reason: .parameterChanged, detail: "\(parameter) \(before) -> \(after)")
        }
        if names.contains("program") {
            let path =
                (current["program"] ?? previous["program"] ?? "").split(separator: " ").first.map(String.init) ?? ""
            return KeyChange(reason: .programChanged, detail: path)
        }
        for name in names where name.hasPrefix("environment.") {
            return KeyChange(reason: .environmentChanged, detail: String(name.dropFirst("environment.".count)))
        }
        for name in names where name.hasPrefix("output.") {
            return KeyChange(reason: .parameterChanged, detail: "output \(name.dropFirst("output.".count))")
        }
        for name in names where name.hasPrefix("file.") {
            return KeyChange(reason: .fileChanged, detail: String(name.dropFirst("file.".count)))
        }
        for name in names where name.hasPrefix("input.") {
            return KeyChange(reason: .inputChanged, detail: String(name.dropFirst("input.".count)))
        }
        // Anything else (a program's own `action.*` components, the preferred input).
        return KeyChange(reason: .parameterChanged, detail: names.first ?? "")
    }

    /// The names present in either with different values, in `current`'s order, then those
    /// only in `previous`. Linear: the same names in the same order (one file of 50,000
    /// changed) are compared in pairs; otherwise each name is looked up by `KeyComponents`'
    /// index.
    static func changedNames(_ previous: KeyComponents, _ current: KeyComponents) -> [String] {
        let pairs = zip(previous.components, current.components)
        if previous.components.count == current.components.count, pairs.allSatisfy({ $0.name == $1.name }) {
            return pairs.filter { $0.value != $1.value }.map(\.1.name)
        }
        var names = current.components.filter { previous[$0.name] != $0.value }.map(\.name)
        names += previous.components.filter { current[$0.name] == nil }.map(\.name)
        return names
    }
}
