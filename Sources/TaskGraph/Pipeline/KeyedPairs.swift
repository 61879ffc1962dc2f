/// A YAML mapping's pairs looked up by key, with "unknown key" checks.
struct KeyedPairs {
    /// The pairs in file order.
    let pairs: [YAMLPair]
    /// Values by key (keys are unique: the YAML reader rejects duplicates).
    let values: [String: YAMLValue]

    init(_ pairs: [YAMLPair]) {
        self.pairs = pairs
        values = Dictionary(pairs.map { ($0.key.text, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The value of `key`, if present.
    subscript(key: String) -> YAMLValue? { values[key] }

    /// An error for every key not in `allowed`, with a suggestion where one is close.
    /// - Parameter subject: how to name the mapping, e.g. `top-level` or `operation 'tilt'`.
    func unknownKeyDiagnostics(allowed: [String], subject: String) -> [Diagnostic] {
        pairs.filter { !allowed.contains($0.key.text) }.map { pair in
            .error(
                "unknown \(subject) key '\(pair.key.text)'" + Suggestion.clause(for: pair.key.text, in: allowed),
                at: pair.key.location)
        }
    }
}
