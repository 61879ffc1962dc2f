import CCurl
import CCurlShim
import Foundation
import TaskGraphCore

/// One libcurl transfer, driven by curl's multi interface on the calling thread so that
/// cancellation and stalls are noticed within 50 ms whatever the server does.
///
/// Owns its easy and multi handles and header list and frees them in `deinit`, which also
/// releases the connection of an aborted transfer. Confined to one thread: create, perform and
/// drop it inside one `BlockingIO.run` call.
final class CurlTransfer {
    /// Longest wait in `curl_multi_poll`: bounds how late cancellation and stalls are noticed.
    private static let pollMilliseconds: Int32 = 50
    /// Least time between two progress reports.
    private static let progressInterval = Duration.milliseconds(100)
    /// Why libcurl could not be loaded (it is opened, and `curl_global_init` run, before the
    /// first handle is made), or nil once it is ready.
    private static let loadFailure: String? = tg_curl_load().map { String(cString: $0) }

    private let request: CurlRequest
    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let buffer: ReceiveBuffer
    private let errorText: UnsafeMutablePointer<CChar>

    /// Prepares a transfer of `request`.
    /// - Throws: `DownloadError.transferFailed` if libcurl cannot be loaded or cannot make its
    ///   handles (out of memory).
    init(_ request: CurlRequest) throws(DownloadError) {
        if let reason = Self.loadFailure {
            throw .transferFailed(url: request.displayURL, reason: reason, isRetryable: false)
        }
        guard let easy = tg_curl_easy_init() else { throw Self.startFailure(request) }
        guard let multi = tg_curl_multi_init() else {
            tg_curl_easy_cleanup(easy)
            throw Self.startFailure(request)
        }
        self.request = request
        self.easy = easy
        self.multi = multi
        buffer = ReceiveBuffer(limit: request.maxBytes)
        errorText = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        for header in request.headers { headerList = tg_curl_slist_append(headerList, header) }
        configure()
        tg_curl_multi_add_handle(multi, easy)
    }

    deinit {
        tg_curl_multi_remove_handle(multi, easy)
        tg_curl_easy_cleanup(easy)
        tg_curl_multi_cleanup(multi)
        tg_curl_slist_free_all(headerList)
        errorText.deallocate()
    }

    private func configure() {
        tg_curl_setopt_pointer(easy, CURLOPT_URL, request.url)
        tg_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        tg_curl_setopt_pointer(easy, CURLOPT_PROTOCOLS_STR, "http,https,file")
        tg_curl_setopt_pointer(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        tg_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        tg_curl_setopt_long(easy, CURLOPT_FAILONERROR, 1)
        tg_curl_setopt_long(easy, CURLOPT_MAXREDIRS, CurlRequest.maxRedirects)
        tg_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
        tg_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
        tg_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout))
        tg_curl_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes))
        tg_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList)
        tg_curl_setopt_pointer(easy, CURLOPT_USERAGENT, "taskgraph")
        tg_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorText)
        tg_curl_setopt_write_function(easy) { ReceiveBuffer.write($0, $1, $2, $3) }
        tg_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(buffer).toOpaque())
    }

    /// Runs the transfer to the end (blocking).
    /// - Parameters:
    ///   - isCancelled: polled every 50 ms at most; when true the transfer is aborted.
    ///   - progress: bytes so far and the total when known, at most every 100 ms and at the end.
    /// - Returns: the body and validators, or that the server answered 304 Not Modified.
    /// - Throws: `CancellationError` when cancelled, otherwise `DownloadError`.
    func perform(isCancelled: () -> Bool, progress: (Int64, Int64?) -> Void) throws -> CurlResponse {
        let clock = ContinuousClock()
        var lastCount = 0
        var lastArrival = clock.now
        var lastReport = clock.now - Self.progressInterval
        var running: Int32 = 1
        while true {
            let state = tg_curl_multi_perform(multi, &running)
            guard state == CURLM_OK else {
                throw DownloadError.transferFailed(
                    url: request.displayURL, reason: String(cString: tg_curl_multi_strerror(state)), isRetryable: false)
            }
            let now = clock.now
            if buffer.data.count != lastCount {
                lastCount = buffer.data.count
                lastArrival = now
            }
            if running == 0 { break }
            if now - lastReport >= Self.progressInterval {
                progress(Int64(lastCount), contentLength)
                lastReport = now
            }
            if isCancelled() { throw CancellationError() }
            if now - lastArrival >= request.stallTimeout {
                throw DownloadError.stalled(url: request.displayURL, after: request.stallTimeout)
            }
            tg_curl_multi_poll(multi, nil, 0, Self.pollMilliseconds, nil)
        }
        progress(Int64(buffer.data.count), contentLength)
        return try response(for: result())
    }

    /// The result code of the finished transfer.
    private func result() -> CURLcode {
        var queued: Int32 = 0
        while let message = tg_curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return CURLE_GOT_NOTHING
    }

    /// The response, or the error that `code` and the HTTP status stand for.
    private func response(for code: CURLcode) throws(DownloadError) -> CurlResponse {
        let url = request.displayURL
        if buffer.exceededLimit || code == CURLE_FILESIZE_EXCEEDED {
            throw .tooLarge(url: url, limit: request.maxBytes)
        }
        let received = Int64(buffer.data.count)
        if code == CURLE_PARTIAL_FILE, let expected = contentLength {
            throw .truncated(url: url, received: received, expected: expected)
        }
        var status = 0
        tg_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        if code == CURLE_HTTP_RETURNED_ERROR || status >= 400 {
            var seconds: curl_off_t = -1
            tg_curl_getinfo_off_t(easy, CURLINFO_RETRY_AFTER, &seconds)
            throw .httpStatus(code: status, url: url, retryAfter: seconds > 0 ? .seconds(seconds) : nil)
        }
        guard code == CURLE_OK else { throw CurlFailure.error(for: code, url: url, detail: errorDetail) }
        if status == 304 {
            let conditional = request.headers.contains {
                $0.hasPrefix("If-None-Match:") || $0.hasPrefix("If-Modified-Since:")
            }
            guard conditional else { throw .notModifiedUnasked(url: url) }
            return CurlResponse(body: Data(), notModified: true, validators: validators)
        }
        if let expected = contentLength, received < expected {
            throw .truncated(url: url, received: received, expected: expected)
        }
        return CurlResponse(body: buffer.data, notModified: false, validators: validators)
    }

    /// The validators among the headers of the last response (after redirects).
    private var validators: [String: String] {
        var found: [String: String] = [:]
        for name in CurlResponse.validatorNames {
            var header: UnsafeMutablePointer<curl_header>?
            if tg_curl_easy_header(easy, name, 0, UInt32(CURLH_HEADER), -1, &header) == CURLHE_OK,
                let value = header?.pointee.value
            {
                found[name] = String(cString: value)
            }
        }
        return found
    }

    /// The announced body length, when the response had one.
    private var contentLength: Int64? {
        var length: curl_off_t = -1
        tg_curl_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        return length >= 0 ? Int64(length) : nil
    }

    /// curl's own explanation of the last failure, without credentials.
    private var errorDetail: String {
        RedactedURL.redactAll(in: String(cString: errorText), url: request.url)
    }

    private static func startFailure(_ request: CurlRequest) -> DownloadError {
        .transferFailed(
            url: request.displayURL, reason: "libcurl could not create a transfer handle", isRetryable: true)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
