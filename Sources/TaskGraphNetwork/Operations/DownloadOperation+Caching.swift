import TaskGraphCore

/// A download's key covers its URL and request headers (parameters) and, for a local file, the
/// file's contents. A remote body can change under the same key, so a stored one is revalidated
/// with a conditional request, unless `sha256` pins it.
extension DownloadOperation: BuiltInAction {
    var cacheVersion: Int { 1 }

    /// The time limits: they decide whether a transfer fails, never what a body is.
    var unkeyedParameters: Set<String> { ["connect_timeout", "stall_timeout"] }

    /// `file.<path>` for a local file: the digest of its contents.
    func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws {
        if let localFile {
            key.add("file.\(localFile.writtenPath)", try await files.digest(ofFile: localFile.path).description)
        }
    }

    /// Unless the body is pinned (`sha256`) or a local file.
    var revalidatesOnHit: Bool { expectedSHA256 == nil && localFile == nil }

    /// Nil without any request for a pinned body (`sha256`) or a local file; otherwise one
    /// conditional GET with the stored `etag` and `last-modified` (`If-None-Match`,
    /// `If-Modified-Since`): nil for 304 Not Modified, the new body for 200. Without validators
    /// the URL is downloaded again.
    /// - Throws: what a download throws.
    func revalidate(validators: [String: String], in context: TaskContext) async throws -> (any OperationResult)? {
        guard revalidatesOnHit else { return nil }
        var conditional = request
        for (name, header) in [("etag", "If-None-Match"), ("last-modified", "If-Modified-Since")] {
            // A stored value with a line break would smuggle in another header: it is left out.
            if let value = validators[name], !value.contains(where: \.isNewline) {
                conditional.headers.append("\(header): \(value)")
            }
        }
        let response = try await transfer(conditional, context: context)
        return response.notModified ? nil : result(of: response)
    }
}
