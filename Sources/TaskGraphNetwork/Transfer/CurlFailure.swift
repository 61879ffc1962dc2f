import CCurl
import CCurlShim
import TaskGraphCore

/// Turns libcurl result codes into `DownloadError`s a user can act on.
enum CurlFailure {
    /// Codes that mean the network or server hiccuped: another attempt may succeed.
    private static let retryableCodes: Set<UInt32> = [
        CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_GOT_NOTHING,
        CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// The error for a failed transfer of `url` (already redacted).
    /// - Parameter detail: curl's error buffer, more specific than the code's generic text.
    static func error(for code: CURLcode, url: String, detail: String) -> DownloadError {
        switch code {
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(url: url, limit: CurlRequest.maxRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .transferFailed(
                url: url, reason: "only http, https and file URLs are allowed, and redirects only to http and https",
                isRetryable: false)
        default:
            let reason = detail.isEmpty ? String(cString: tg_curl_easy_strerror(code)) : detail
            return .transferFailed(url: url, reason: reason, isRetryable: retryableCodes.contains(code.rawValue))
        }
    }
}
