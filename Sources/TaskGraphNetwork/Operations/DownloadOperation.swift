import Crypto
import Foundation
import TaskGraphCore

/// `download`: fetches a URL with libcurl into memory, on a dedicated thread, cancellable at once.
struct DownloadOperation: TaskAction {
    static let type = OperationType(
        name: "download",
        summary: "Fetches an http, https or file URL (or a path) as bytes. The operation's timeout bounds the whole transfer; retries apply to 5xx, 408, 429 and network failures.",
        parameters: [
            ParameterSpec("url", .string, "http://, https:// or file:// URL, or a path relative to the pipeline file."),
            ParameterSpec("headers", .stringMap, optional: true, "Extra request headers; their values never appear in messages."),
            ParameterSpec("connect_timeout", .duration, default: .duration(.seconds(30)), "Time allowed to connect."),
            ParameterSpec("stall_timeout", .duration, default: .duration(.seconds(30)), "Fail when no byte arrives for this long."),
            ParameterSpec("max_bytes", .integer(1...Int.max), default: .integer(256 << 20), "Abort when the body grows past this many bytes."),
            ParameterSpec("sha256", .string, optional: true, "Expected SHA-256 of the body, in hexadecimal."),
        ],
        produces: [.bytes],
        makeAction: { setup in try DownloadOperation(setup) })

    let request: CurlRequest
    let expectedSHA256: String?

    /// Checks the parameters of one instance.
    /// - Throws: `DownloadError` for an unsupported URL, a malformed checksum or header.
    init(_ setup: OperationSetup) throws(DownloadError) {
        let parameters = setup.parameters
        let url = try Self.resolve(parameters.string("url") ?? "", in: setup.pipelineDirectory)
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

    func run(in context: TaskContext) async throws -> any Artifact {
        let request = request
        let expectedSHA256 = expectedSHA256
        let data = try await CancellationFlag.run { flag in
            try await BlockingIO.run {
                let data = try CurlTransfer(request).perform(isCancelled: { flag.isCancelled }) { completed, total in
                    context.reportProgress(completed: completed, total: total, unit: .bytes)
                }
                if let expected = expectedSHA256 {
                    let actual = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
                    guard actual == expected else {
                        throw DownloadError.checksumMismatch(url: request.displayURL, expected: expected, actual: actual)
                    }
                }
                return data
            }
        }
        return DownloadedData(url: request.displayURL, data: data)
    }
}
