import Crypto
import Foundation
import TaskGraphCore

/// `download`: fetches a URL with libcurl into memory, on a dedicated thread, cancellable at once.
struct DownloadOperation: TaskAction {
    static let type = OperationType(
        name: "download",
        summary:
            "Fetches an http, https or file URL (or a path) as bytes. The operation's timeout bounds the whole "
            + "transfer; retries apply to 5xx, 408, 429 and network failures.",
        parameters: [
            ParameterSpec("url", .string, "http://, https:// or file:// URL, or a path relative to the pipeline file."),
            ParameterSpec(
                "headers", .stringMap, optional: true, "Extra request headers; their values never appear in messages."),
            ParameterSpec("connect_timeout", .duration, default: .duration(.seconds(30)), "Time allowed to connect."),
            ParameterSpec(
                "stall_timeout", .duration, default: .duration(.seconds(30)), "Fail when no byte arrives for this long."
            ),
            ParameterSpec(
                "max_bytes", .integer(1...Int.max), default: .integer(256 << 20),
                "Abort when the body grows past this many bytes."),
            ParameterSpec(
                "sha256", .string, optional: true,
                "Expected SHA-256 of the body, in hexadecimal; pins the content, so a cached body is reused without "
                    + "asking the server."
            ),
        ],
        produces: [.bytes],
        makeAction: { setup in try DownloadOperation(setup) })

    /// A local file to fetch.
    struct LocalFile: Sendable {
        /// The path as the pipeline writes it (relative to its directory), or a file URL's path.
        let writtenPath: String
        /// The absolute path.
        let path: String
    }

    let request: CurlRequest
    let expectedSHA256: String?
    /// The file, for a path or a file URL; nil for http and https.
    let localFile: LocalFile?

    /// Checks the parameters of one instance.
    /// - Throws: `DownloadError` for an unsupported URL, a malformed checksum or header.
    init(_ setup: OperationSetup) throws(DownloadError) {
        let parameters = setup.parameters
        let text = parameters.string("url") ?? ""
        let url = try Self.resolve(text, in: setup.pipelineDirectory)
        var headers: [String] = []
        for (name, value) in (parameters.map("headers") ?? [:]).sorted(by: { $0.key < $1.key }) {
            let forbidden = CharacterSet(charactersIn: ":\r\n")
            guard !name.isEmpty, name.rangeOfCharacter(from: forbidden.union(.whitespaces)) == nil,
                value.rangeOfCharacter(from: CharacterSet(charactersIn: "\r\n")) == nil
            else { throw .malformedHeader(name: name) }
            headers.append("\(name): \(value)")
        }
        if let checksum = parameters.string("sha256") {
            guard checksum.count == 64, checksum.allSatisfy(\.isHexDigit) else { throw .malformedChecksum(checksum) }
            expectedSHA256 = checksum.lowercased()
        } else {
            expectedSHA256 = nil
        }
        request = CurlRequest(
            url: url, headers: headers,
            connectTimeout: parameters.duration("connect_timeout") ?? .seconds(30),
            maxBytes: Int64(parameters.integer("max_bytes") ?? 256 << 20),
            stallTimeout: parameters.duration("stall_timeout") ?? .seconds(30))
        if text.contains("://") {
            let path = url.lowercased().hasPrefix("file:") ? URL(string: url)?.path ?? String(url.dropFirst(7)) : nil
            localFile = path.map { LocalFile(writtenPath: $0, path: $0) }
        } else {
            localFile = LocalFile(writtenPath: text, path: PathResolver.resolve(text, in: setup.pipelineDirectory))
        }
    }

    /// `text` as a URL curl accepts: http, https and file URLs as written, a path as a file URL.
    static func resolve(_ text: String, in directory: String) throws(DownloadError) -> String {
        guard let schemeEnd = text.range(of: "://") else {
            guard !text.isEmpty else { throw .unsupportedURL(text) }
            return URL(fileURLWithPath: PathResolver.resolve(text, in: directory)).absoluteString
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard ["http", "https", "file"].contains(scheme) else { throw .unsupportedURL(RedactedURL.redact(text)) }
        return text
    }

    func run(in context: TaskContext) async throws -> any OperationResult {
        result(of: try await transfer(request, context: context))
    }

    /// Performs `request` on a blocking thread, reporting progress, cancellable at once; a body
    /// is checked against `sha256`.
    /// - Throws: `DownloadError`, `CancellationError`.
    func transfer(_ request: CurlRequest, context: TaskContext) async throws -> CurlResponse {
        let expectedSHA256 = expectedSHA256
        return try await CancellationFlag.run { flag in
            try await BlockingIO.run {
                let response = try CurlTransfer(request).perform(isCancelled: { flag.isCancelled }) {
                    completed, total in
                    context.reportProgress(completed: completed, total: total, unit: .bytes)
                }
                if let expected = expectedSHA256, !response.notModified {
                    let actual = SHA256.hash(data: response.body).map { String(format: "%02x", $0) }.joined()
                    guard actual == expected else {
                        throw DownloadError.checksumMismatch(
                            url: request.displayURL, expected: expected, actual: actual)
                    }
                }
                return response
            }
        }
    }

    /// The result for `response`: its body, and its validators unless the file is local (its
    /// digest is part of the key instead).
    func result(of response: CurlResponse) -> DownloadedData {
        DownloadedData(
            url: request.displayURL, data: response.body, validators: localFile == nil ? response.validators : [:])
    }
}
