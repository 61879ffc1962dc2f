import TaskGraphCore

/// `download` in Swift: fetches a URL with libcurl, keyed as the same `download` in a pipeline
/// file.
///
/// ```swift
/// let photo = try Download(url: "https://example.com/lake.jpg.enc")
/// ```
public struct Download: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `download` of `url` (http, https, file, or a path relative to `directory`); unset
    /// parameters take `download`'s defaults.
    /// - Parameter headers: extra request headers; their values never appear in messages.
    /// - Throws: `OperationError` with `validate`'s message for a value it does not accept, or
    ///   the `NetworkError` `validate` reports for a URL it cannot fetch.
    public init(
        url: String, headers: [String: String]? = nil, connectTimeout: Duration? = nil,
        stallTimeout: Duration? = nil, maxBytes: Int? = nil, sha256: String? = nil, directory: String = "/"
    ) throws {
        configured = try DownloadOperation.type.configure(
            Parameters(setting: [
                "url": .string(url), "headers": headers.map(ParameterValue.map),
                "connect_timeout": connectTimeout.map(ParameterValue.duration),
                "stall_timeout": stallTimeout.map(ParameterValue.duration),
                "max_bytes": maxBytes.map(ParameterValue.integer), "sha256": sha256.map(ParameterValue.string),
            ]),
            pipelineDirectory: directory)
    }
}
