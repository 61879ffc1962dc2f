/// A YAML mapping's pairs looked up by key, with "unknown key" checks.
package struct KeyedPairs {
    /// The pairs in file order (keys are unique: the YAML reader drops duplicates).
    package let pairs: [YAMLPair]

    package init(_ pairs: [YAMLPair]) {
        self.pairs = pairs
    }

    /// The value of `key`, if present. A linear search: these mappings hold a handful of keys
    /// (an operation, the top level), where it beats hashing, and no index is built per mapping.
    package subscript(key: String) -> YAMLValue? { pairs.first { $0.key.text == key }?.value }

    /// An error for every key not in `allowed`, with a suggestion where one is close.
    /// - Parameter subject: how to name the mapping, e.g. `top-level` or `operation 'tilt'`.
    package func unknownKeyDiagnostics(allowed: [String], subject: String) -> [Diagnostic] {
        pairs.filter { !allowed.contains($0.key.text) }.map { pair in
            .error(
                "unknown \(subject) key \(DisplayText.quoted(pair.key.text))"
                    + Suggestion.clause(for: pair.key.text, in: allowed),
                at: pair.key.location)
        }
    }
}
