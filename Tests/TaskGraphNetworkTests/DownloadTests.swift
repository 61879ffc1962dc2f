import Foundation
import OperationTestSupport
import Synchronization
import TestSupport
import Testing

@testable import TaskGraphCore
@testable import TaskGraphNetwork

/// `download` against a real HTTP server on 127.0.0.1: every outcome and its exact message.
struct DownloadTests {
    let server: TestServerProcess

    init() async throws {
        server = try await TestHTTPServer.shared()
    }

    private func download(_ url: String, _ parameters: [String: ParameterValue] = [:], directory: String? = nil)
        async throws -> Data
    {
        var values = parameters
        values["url"] = .string(url)
        let result = try await runOperation(
            DownloadOperation.type, values, directory: directory ?? FileManager.default.temporaryDirectory.path)
        return try await #require(result as? any BytesProvider).data
    }

    /// The `DownloadError` that downloading `url` throws.
    private func failure(_ url: String, _ parameters: [String: ParameterValue] = [:]) async -> DownloadError? {
        do {
            _ = try await download(url, parameters)
            Issue.record("expected \(url) to fail")
            return nil
        } catch {
            return error as? DownloadError
        }
    }

    @Test func fetchesAFileAndReportsProgress() async throws {
        let updates = ProgressLog()
        let result = try await runOperation(
            DownloadOperation.type, ["url": .string(server.url("/bytes/300000"))], progress: updates.record)
        let download = try #require(result as? DownloadedData)
        #expect(download.data == servedPattern(300_000))
        #expect(download.summary == ByteCountText.format(300_000))
        #expect(updates.last == ProgressUpdate(completed: 300_000, total: 300_000, unit: .bytes))
    }

    @Test func fetchesFileURLsAndPathsRelativeToThePipeline() async throws {
        let directory = try makeScratchDirectory()
        try Data("offline\n".utf8).write(to: directory.appendingPathComponent("local data.txt"))
        #expect(try await download("local data.txt", directory: directory.path) == Data("offline\n".utf8))
        let fileURL = directory.appendingPathComponent("local data.txt").absoluteString
        #expect(try await download(fileURL) == Data("offline\n".utf8))
        let missingURL = directory.appendingPathComponent("missing.txt").absoluteString
        let missing = await failure(missingURL)
        #expect(
            missing?.description == "cannot download \(missingURL): Couldn't open file \(directory.path)/missing.txt")
        #expect(missing?.isRetryable == false)
    }

    @Test func clientErrorsFailAtOnceNamingStatusAndURL() async throws {
        let error = await failure(server.url("/status/404"))
        #expect(error?.description == "HTTP 404 from \(server.url("/status/404"))")
        #expect(error?.isRetryable == false)
    }

    /// A hostile or broken server answers 304 to a request that named no stored copy: an error,
    /// not an empty body.
    @Test func aNotModifiedAnswerToAnUnconditionalRequestFails() async throws {
        let url = server.url("/status/304")
        let error = await failure(url)
        #expect(
            error?.description
                == "HTTP 304 (Not Modified) from \(url) to a request that was not conditional: there is no stored "
                + "body to use"
        )
        #expect(error?.isRetryable == false)
    }

    @Test(arguments: [
        (400, false), (401, false), (404, false), (408, true), (429, true), (500, true), (502, true), (503, true),
    ])
    func statusesAreRetryableOnlyForServerTroubles(status: Int, retryable: Bool) async throws {
        let error = await failure(server.url("/status/\(status)"))
        #expect(error == .httpStatus(code: status, url: server.url("/status/\(status)"), retryAfter: nil))
        #expect(error?.isRetryable == retryable)
    }

    @Test func serverErrorsAreRetriedUntilTheServerRecovers() async throws {
        let url = server.url("/flaky/\(UUID().uuidString)")
        let first = await failure(url)
        #expect(first?.description == "HTTP 500 from \(url)")
        #expect(first?.isRetryable == true)
        let report = try await runInEngine(url: server.url("/flaky/\(UUID().uuidString)"), retries: 3)
        #expect(report.nodes[0].outcome == .succeeded)
        #expect(report.nodes[0].attempts == 3)
        let data = try await (report.finalResults["fetch"] as? any BytesProvider)?.data
        #expect(data == Data("recovered after 2 failures\n".utf8))
    }

    @Test func busyServersAreRetriedAfterRetryAfter() async throws {
        let url = server.url("/busy/\(UUID().uuidString)")
        let error = await failure(url)
        #expect(error == .httpStatus(code: 503, url: url, retryAfter: .seconds(1)))
        #expect(error?.description == "HTTP 503 from \(url) (Retry-After: 1s)")
        #expect(error?.isRetryable == true)
        let start = ContinuousClock.now
        let report = try await runInEngine(url: server.url("/busy/\(UUID().uuidString)"), retries: 1)
        #expect(report.nodes[0].outcome == .succeeded)
        #expect(ContinuousClock.now - start >= .seconds(1))
    }

    @Test func followsRedirectsButNotForeverAndNeverToFiles() async throws {
        #expect(try await download(server.url("/redirect-once")) == servedPattern(100))
        let loop = await failure(server.url("/redirect-loop"))
        #expect(loop?.description == "\(server.url("/redirect-loop")) redirected more than 10 times")
        #expect(loop?.isRetryable == false)
        let toFile = await failure(server.url("/redirect-file"))
        #expect(
            toFile?.description
                == "cannot download \(server.url("/redirect-file")): only http, https and file URLs are allowed, and "
                + "redirects only to http and https"
        )
    }

    @Test func stalledTransfersFail() async throws {
        let start = ContinuousClock.now
        let error = await failure(server.url("/drip/10/2000"), ["stall_timeout": .duration(.milliseconds(300))])
        #expect(error?.description == "no data from \(server.url("/drip/10/2000")) for 300ms; transfer aborted")
        #expect(error?.isRetryable == true)
        #expect(ContinuousClock.now - start < .seconds(15)) // hang guard: the whole drip lasts 20 s
    }

    /// The bound here only guards against hangs; the latency itself (a few milliseconds) is
    /// measured by bench/run-cancel.sh, since timed assertions are noisy beside CPU-heavy tests.
    @Test func cancellationAbortsAnInFlightTransferPromptly() async throws {
        // One byte every 2 s: curl has nothing to wake up for, so the 50 ms poll must notice.
        let url = server.url("/drip/10/2000")
        let task = Task { try await download(url) }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        task.cancel()
        let result = await task.result
        let elapsed = ContinuousClock.now - start
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(elapsed < .seconds(15), "took \(elapsed)")
    }

    @Test func theOperationTimeoutBoundsTheWholeTransfer() async throws {
        let start = ContinuousClock.now
        // A byte every 60 ms for 60 s: the bound is far from both the timeout and the drip's end,
        // so a heavily loaded machine cannot cross it, and a transfer that ignored its
        // cancellation (the engine waits for an abandoned attempt) still does.
        let report = try await runInEngine(url: server.url("/drip/1000/60"), timeout: .milliseconds(300))
        #expect(report.nodes[0].outcome == .timedOut(.milliseconds(300)))
        #expect(ContinuousClock.now - start < .seconds(30)) // hang guard: the whole drip lasts 60 s
    }

    @Test func bodiesShorterThanContentLengthFail() async throws {
        let error = await failure(server.url("/short"))
        #expect(
            error?.description == "\(server.url("/short")) ended after 40 of the 100 bytes announced by Content-Length")
        #expect(error?.isRetryable == true)
    }

    @Test func bodiesLargerThanMaxBytesAreAborted() async throws {
        let announced = await failure(server.url("/bytes/5000"), ["max_bytes": .integer(4999)])
        #expect(
            announced?.description
                == "\(server.url("/bytes/5000")) is larger than max_bytes (4999 bytes); transfer aborted")
        let streamed = await failure(server.url("/stream/50000000"), ["max_bytes": .integer(100_000)])
        #expect(streamed == .tooLarge(url: server.url("/stream/50000000"), limit: 100_000))
        #expect(streamed?.isRetryable == false)
        #expect(try await download(server.url("/bytes/5000"), ["max_bytes": .integer(5000)]).count == 5000)
    }

    @Test func checksumsAreVerified() async throws {
        let url = server.url("/bytes/1000")
        let actual = "4e4c294b331f7a2099a379bec34b9f9fc03dc46ab465d998f4d683da53487e6d"
        let wrong = String(repeating: "0", count: 64)
        let error = await failure(url, ["sha256": .string(wrong)])
        #expect(error?.description == "sha256 of \(url) is \(actual), expected \(wrong)")
        #expect(error?.isRetryable == false)
        #expect(try await download(url, ["sha256": .string(actual.uppercased())]) == servedPattern(1000))
    }

    @Test func headersAreSentAndCredentialsNeverShown() async throws {
        let welcome = try await download(server.url("/auth"), ["headers": .map(["Authorization": "Bearer s3cret"])])
        #expect(welcome == Data("welcome\n".utf8))
        let withUser = "http://ann:hunter2@127.0.0.1:\(server.port)/status/403"
        let error = await failure(withUser)
        #expect(error?.description == "HTTP 403 from \(server.url("/status/403"))")
    }

    @Test func refusedConnectionsAreRetryable() async throws {
        let error = await failure("http://127.0.0.1:1/nothing-listens-here")
        guard case .transferFailed(let url, let reason, true) = error else {
            Issue.record("expected a retryable transfer failure, got \(String(describing: error))")
            return
        }
        #expect(url == "http://127.0.0.1:1/nothing-listens-here")
        #expect(reason.contains("127.0.0.1 port 1"))
    }

    @Test func validateRejectsBadURLsChecksumsAndHeaders() {
        let problems = diagnostics(
            """
            version: 1
            operations:
              a: {op: download, url: "gopher://user:pw@example.com/x"}
              b: {op: download, url: "https://example.com", sha256: abc}
              c: {op: download, url: "https://example.com", headers: {"Bad Name": x}}
            """, registry: .network)
        #expect(
            problems == [
                "test.yaml:3:11: error: operation 'a': 'url' must be an http, https or file URL or a path relative to "
                    + "the pipeline file, not 'gopher://example.com/x'",
                "test.yaml:4:11: error: operation 'b': 'sha256' must be 64 hexadecimal characters, not 'abc'",
                "test.yaml:5:11: error: operation 'c': header 'Bad Name' must have a non-empty name without ':' and no "
                    + "line breaks",
            ])
    }

    private func runInEngine(url: String, retries: Int = 0, timeout: Duration? = nil) async throws -> RunReport {
        var graph = ExecutionGraph()
        let setup = OperationSetup(
            type: "download", id: "fetch",
            parameters: Parameters(Self.defaults.merging(["url": .string(url)]) { _, new in new }),
            pipelineDirectory: "/", outputDirectory: "/")
        try graph.add(
            "fetch", action: DownloadOperation.type.makeAction(setup),
            settings: NodeSettings(retries: retries, timeout: timeout))
        return await Engine(options: EngineOptions(retryBaseDelay: .milliseconds(10))).run(graph)
    }

    private static let defaults = Dictionary(
        uniqueKeysWithValues: DownloadOperation.type.parameters.compactMap { spec in
            spec.defaultValue.map { (spec.name, $0) }
        })
}

/// Progress updates an action reported, in order.
final class ProgressLog: Sendable {
    private let updates = Locked<[ProgressUpdate]>([])

    /// Records `update`.
    @Sendable func record(_ update: ProgressUpdate) {
        updates.withLock { $0.append(update) }
    }

    /// The latest update.
    var last: ProgressUpdate? { updates.withLock { $0.last } }
}
