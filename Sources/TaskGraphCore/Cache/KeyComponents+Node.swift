import Foundation

extension KeyComponents {
    /// The components every cacheable node has: its operation type and version, its keyed
    /// parameters (from its setup, or for a node added in code without one, the action's type
    /// and what its `addParameters` adds), its declared environment (values as digests), the
    /// input it prefers, the digests of its inputs' results in declared order and the paths of
    /// the files it writes (relative to its output or pipeline directory, so that keys travel
    /// between checkouts); then what `action` adds. The files' absolute paths are noted with
    /// `files` for the store that reads the key's record (`FileDigesting.noteOutputFiles`).
    /// - Throws: what `action.addKeyComponents` throws (a declared input file is missing, …).
    package static func of(
        _ node: ExecutionGraph.Node, action: any CacheableAction, inputs: [(id: String, digest: ContentDigest)],
        files: any FileDigesting
    ) async throws -> KeyComponents {
        var key = parameters(of: node, action: action)
        // Room for what follows (what the action adds may grow it once more): appended one by
        // one, every node's components kept a buffer of up to twice their count until the run ended.
        let outputFiles = action.outputFiles
        key.reserveCapacity(key.components.count + inputs.count + outputFiles.count)
        for input in inputs {
            key.add("input.\(input.id)", input.digest.description)
        }
        // Which files it writes, where the pipeline names them: a record made for another
        // output directory or checkout is this one's, its files restored at this one's paths.
        for path in outputFiles {
            let (name, base) = Self.outputName(path, setup: node.setup)
            key.add("output.\(name)", base)
        }
        try await action.addKeyComponents(to: &key, files: files)
        if !outputFiles.isEmpty { files.noteOutputFiles(outputFiles, forKey: key.key) }
        return key
    }

    /// The first components of `node`'s key (see `of`), those that need neither its inputs'
    /// results nor its files: its operation type and version, its keyed parameters and
    /// declared environment, the input it prefers. Computing them reads nothing.
    package static func parameters(of node: ExecutionGraph.Node, action: any CacheableAction) -> KeyComponents {
        var key = KeyComponents()
        key.add("operation", node.type)
        key.add("version", String(action.cacheVersion))
        if let setup = node.setup {
            let unkeyed = action.unkeyedParameters
            for (name, value) in setup.parameters.values.sorted(by: { $0.key < $1.key }) where !unkeyed.contains(name) {
                key.add("parameter.\(name)", value.keyText)
            }
            let unkeyedEnvironment = action.unkeyedEnvironment
            for (name, value) in setup.environment.sorted(by: { $0.key < $1.key })
            where !unkeyedEnvironment.contains(name) {
                key.addSecret("environment.\(name)", value)
            }
            if let preferred = setup.preferredInput { key.add("preferred_input", preferred) }
        } else {
            key.add("action", String(reflecting: Swift.type(of: action)))
            action.addParameters(to: &key)
        }
        return key
    }

    /// An output file's name in the key and the directory it is relative to: `output` beneath
    /// the output directory, `pipeline` beneath the pipeline file's directory, else the
    /// absolute path and nothing.
    static func outputName(_ path: String, setup: OperationSetup?) -> (name: String, base: String) {
        let path = PathResolver.normalized(path)
        guard let setup else { return (path, "") }
        for (base, directory) in [("output", setup.outputDirectory), ("pipeline", setup.pipelineDirectory)] {
            let prefix = PathResolver.normalized(directory) + "/"
            if path.hasPrefix(prefix) { return (String(path.dropFirst(prefix.count)), base) }
        }
        return (path, "")
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
