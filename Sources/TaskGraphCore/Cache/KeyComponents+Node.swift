import Foundation

extension KeyComponents {
    /// The components every cacheable node has: its operation type and version, its keyed
    /// parameters (from its setup, or for a node added in code without one, the action's type
    /// and what its `addParameters` adds), its declared environment (values as digests), the
    /// input it prefers, the digests of its inputs' results in declared order and the absolute
    /// paths of the files it writes; then what `action` adds.
    /// - Throws: what `action.addKeyComponents` throws (a declared input file is missing, …).
    package static func of(
        _ node: ExecutionGraph.Node, action: any CacheableAction, inputs: [(id: String, digest: ContentDigest)],
        files: any FileDigesting
    ) async throws -> KeyComponents {
        var key = KeyComponents()
        key.add("operation", node.type)
        key.add("version", String(action.cacheVersion))
        if let setup = node.setup {
            let unkeyed = action.unkeyedParameters
            for (name, value) in setup.parameters.values.sorted(by: { $0.key < $1.key }) where !unkeyed.contains(name) {
                key.add("parameter.\(name)", value.keyText)
            }
            for (name, value) in setup.environment.sorted(by: { $0.key < $1.key }) {
                key.addSecret("environment.\(name)", value)
            }
            if let preferred = setup.preferredInput { key.add("preferred_input", preferred) }
        } else {
            key.add("action", String(reflecting: Swift.type(of: action)))
            action.addParameters(to: &key)
        }
        for input in inputs {
            key.add("input.\(input.id)", input.digest.description)
        }
        // Where its files go: a result recorded for other paths (another output directory) is
        // not this one's.
        for path in action.outputFiles {
            key.add("output.\(path)", "")
        }
        try await action.addKeyComponents(to: &key, files: files)
        return key
    }
}

extension ParameterValue {
    /// The value as a key component: as a user would write it, except that credentials in URLs
    /// and secret-looking map entries are shown redacted and followed by the digest of the
    /// whole value, so a changed secret changes the key without being stored.
    var keyText: String {
        let redacted = redacted
        guard redacted != self else { return writtenText }
        return redacted.description + " " + ContentDigest.sha256(of: Data(description.utf8)).description
    }
}
