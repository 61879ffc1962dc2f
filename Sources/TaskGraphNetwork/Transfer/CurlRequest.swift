import TaskGraphCore

/// What one libcurl transfer fetches and the limits it runs under.
struct CurlRequest: Sendable {
    /// The URL curl fetches (credentials allowed here, never in messages).
    var url: String
    /// Extra request headers, `Name: value`.
    var headers: [String] = []
    /// Time allowed to connect.
    var connectTimeout: Duration
    /// The largest body accepted.
    var maxBytes: Int64
    /// Longest time without a byte before the transfer fails.
    var stallTimeout: Duration

    /// Most redirects followed.
    static let maxRedirects = 10

    /// The URL as messages show it.
    var displayURL: String { RedactedURL.redact(url) }
}
