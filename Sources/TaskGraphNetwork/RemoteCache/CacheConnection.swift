import CCurl
import CCurlShim
import Foundation
import TaskGraphCore

/// One keep-alive connection to a remote cache: a libcurl easy handle in its own multi handle,
/// whose connection cache keeps the TCP connection open between requests. Used by one thread at
/// a time (`HTTPCacheClient` hands it out from its pool), inside a blocking call.
final class CacheConnection {
    /// Longest wait in `curl_multi_poll`: bounds how late cancellation is noticed.
    private static let pollMilliseconds: Int32 = 50
    /// Why libcurl could not be loaded, or nil once it is ready.
    private static let loadFailure: String? = tg_curl_load().map { String(cString: $0) }

    /// Loads libcurl, once per process (blocking); a failure is left for the first request.
    static func loadLibrary() { _ = loadFailure }

    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorText: UnsafeMutablePointer<CChar>

    /// A connection sending `headers` (`Name: value`) with every request.
    /// - Throws: `RemoteCacheError.unavailable`.
    init(headers: [String], settings: HTTPCacheClient.Settings) throws(RemoteCacheError) {
        if let reason = Self.loadFailure { throw .unavailable(reason: reason) }
        guard let easy = tg_curl_easy_init() else { throw .unavailable(reason: "libcurl could not create a handle") }
        guard let multi = tg_curl_multi_init() else {
            tg_curl_easy_cleanup(easy)
            throw .unavailable(reason: "libcurl could not create a handle")
        }
        self.easy = easy
        self.multi = multi
        errorText = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // `Expect:` empty: a PUT's body goes at once, without waiting for 100 Continue.
        for header in headers + ["Expect:"] { headerList = tg_curl_slist_append(headerList, header) }
        tg_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        tg_curl_setopt_pointer(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        tg_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        tg_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMilliseconds)
        // A stalled body: less than 1 byte a second for the stall timeout ends the request.
        tg_curl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
        tg_curl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, settings.stallSeconds)
        tg_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList)
        tg_curl_setopt_pointer(easy, CURLOPT_USERAGENT, "taskgraph")
        tg_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorText)
        tg_curl_setopt_write_function(easy) { ReceiveBuffer.write($0, $1, $2, $3) }
    }

    deinit {
        tg_curl_easy_cleanup(easy)
        tg_curl_multi_cleanup(multi)
        tg_curl_slist_free_all(headerList)
        errorText.deallocate()
    }

    /// Sends one request (blocking) and returns the status and body.
    /// - Parameters:
    ///   - method: `GET`, `HEAD` or `PUT`.
    ///   - url: the full URL; `path` names it in errors (no credentials).
    ///   - body: what a `PUT` sends.
    ///   - isCancelled: polled every 50 ms; when true the request is aborted.
    /// - Throws: `CancellationError`, `RemoteCacheError.transferFailed`.
    func perform(
        _ method: String, url: String, path: String, body: Data?, maxBytes: Int64, isCancelled: () -> Bool
    ) throws -> (status: Int, body: Data) {
        let buffer = ReceiveBuffer(limit: maxBytes)
        tg_curl_setopt_pointer(easy, CURLOPT_URL, url)
        tg_curl_setopt_long(easy, CURLOPT_HTTPGET, 1)
        tg_curl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, nil)
        tg_curl_setopt_long(easy, CURLOPT_NOBODY, method == "HEAD" ? 1 : 0)
        tg_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(buffer).toOpaque())
        errorText[0] = 0
        let code = try (body ?? Data()).withUnsafeBytes { bytes throws -> CURLcode in
            if body != nil {
                tg_curl_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                tg_curl_setopt_pointer(easy, CURLOPT_POSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(errorText))
                tg_curl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, "PUT")
            }
            defer { tg_curl_multi_remove_handle(multi, easy) }
            tg_curl_multi_add_handle(multi, easy)
            return try run(isCancelled: isCancelled)
        }
        guard code == CURLE_OK else {
            let detail = String(cString: errorText)
            let reason = detail.isEmpty ? String(cString: tg_curl_easy_strerror(code)) : detail
            throw RemoteCacheError.transferFailed(method: method, path: path, reason: reason)
        }
        var status = 0
        tg_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return (status, buffer.data)
    }

    /// Drives the transfer to its end, polling `isCancelled`.
    private func run(isCancelled: () -> Bool) throws -> CURLcode {
        var running: Int32 = 1
        while true {
            let state = tg_curl_multi_perform(multi, &running)
            guard state == CURLM_OK else { return CURLE_FAILED_INIT }
            if running == 0 { break }
            if isCancelled() { throw CancellationError() }
            tg_curl_multi_poll(multi, nil, 0, Self.pollMilliseconds, nil)
        }
        var queued: Int32 = 0
        while let message = tg_curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return CURLE_GOT_NOTHING
    }
}
