import TaskGraphCore

/// Why `download` failed. URLs in messages never carry credentials (see `RedactedURL`).
public enum DownloadError: Error, Equatable, Sendable {
    /// `url` is neither an http, https or file URL nor a path.
    case unsupportedURL(String)
    /// `sha256` is not 64 hexadecimal characters.
    case malformedChecksum(String)
    /// A header name or value cannot be sent (empty name, a colon or a line break).
    case malformedHeader(name: String)
    /// The server answered with an HTTP status of 400 or more.
    case httpStatus(code: Int, url: String, retryAfter: Duration?)
    /// The server answered 304 Not Modified to a request that named no stored copy: there is
    /// no body to use.
    case notModifiedUnasked(url: String)
    /// The transfer failed below HTTP: DNS, connection, TLS, a local file missing, a refused protocol.
    case transferFailed(url: String, reason: String, isRetryable: Bool)
    /// The body ended before the length the server announced in `Content-Length`.
    case truncated(url: String, received: Int64, expected: Int64)
    /// The body grew past `max_bytes`; the transfer was aborted.
    case tooLarge(url: String, limit: Int64)
    /// No bytes arrived for `stall_timeout`.
    case stalled(url: String, after: Duration)
    /// More redirects than allowed.
    case tooManyRedirects(url: String, limit: Int)
    /// The body's SHA-256 is not the one the pipeline expects.
    case checksumMismatch(url: String, expected: String, actual: String)
}

extension DownloadError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unsupportedURL(let url):
            "'url' must be an http, https or file URL or a path relative to the pipeline file, not '\(url)'"
        case .malformedChecksum(let text):
            "'sha256' must be 64 hexadecimal characters, not '\(text)'"
        case .malformedHeader(let name):
            "header '\(name)' must have a non-empty name without ':' and no line breaks"
        case .httpStatus(let code, let url, let retryAfter):
            "HTTP \(code) from \(url)" + (retryAfter.map { " (Retry-After: \(DurationParser.format($0)))" } ?? "")
        case .notModifiedUnasked(let url):
            "HTTP 304 (Not Modified) from \(url) to a request that was not conditional: there is no stored body to use"
        case .transferFailed(let url, let reason, _):
            "cannot download \(url): \(reason)"
        case .truncated(let url, let received, let expected):
            "\(url) ended after \(received) of the \(expected) bytes announced by Content-Length"
        case .tooLarge(let url, let limit):
            "\(url) is larger than max_bytes (\(limit) bytes); transfer aborted"
        case .stalled(let url, let after):
            "no data from \(url) for \(DurationParser.format(after)); transfer aborted"
        case .tooManyRedirects(let url, let limit):
            "\(url) redirected more than \(limit) times"
        case .checksumMismatch(let url, let expected, let actual):
            "sha256 of \(url) is \(actual), expected \(expected)"
        }
    }
}

extension DownloadError: RetryClassifying {
    /// Server errors (5xx), 408, 429, network failures, truncation and stalls may pass on
    /// another attempt; client errors (4xx), size and checksum failures will not.
    public var isRetryable: Bool {
        switch self {
        case .httpStatus(let code, _, _): code >= 500 || code == 408 || code == 429
        case .transferFailed(_, _, let isRetryable): isRetryable
        case .truncated, .stalled: true
        case .unsupportedURL, .malformedChecksum, .malformedHeader, .tooLarge, .tooManyRedirects, .checksumMismatch,
            .notModifiedUnasked:
            false
        }
    }

    /// The server's `Retry-After`, if it sent one with a 429 or 503.
    public var retryAfter: Duration? {
        if case .httpStatus(_, _, let retryAfter) = self { return retryAfter }
        return nil
    }
}
