import Foundation

/// What a finished transfer received.
struct CurlResponse: Sendable {
    /// The body; empty when `notModified`.
    var body: Data
    /// Whether the server answered 304 Not Modified (to a conditional request).
    var notModified: Bool
    /// The response's `ETag` and `Last-Modified` headers, as `etag` and `last-modified`, when
    /// an HTTP response had them.
    var validators: [String: String]

    /// The names of the headers kept as validators.
    static let validatorNames = ["etag", "last-modified"]
}
