import Foundation
import OperationTestSupport
import TestSupport
import Testing

@testable import TaskGraphCore
@testable import TaskGraphNetwork

/// What a download adds to its cache key, and how a stored body is revalidated: one conditional
/// request against a real HTTP server, none for a pinned body or a local file.
struct DownloadCachingTests {
    let server: TestServerProcess
    /// The server's content for this test, apart from every other test's.
    let key = UUID().uuidString

    init() async throws {
        server = try await TestHTTPServer.shared()
    }

    private func download(
        _ url: String, _ parameters: [String: ParameterValue] = [:], directory: String = NSTemporaryDirectory()
    ) throws -> DownloadOperation {
        var values = parameters
        values["url"] = .string(url)
        return try #require(
            try makeOperationAction(DownloadOperation.type, values, directory: directory) as? DownloadOperation)
    }

    /// `/versioned/KEY/MODE` of this test's key.
    private func versioned(_ mode: String) -> String {
        server.url("/versioned/\(key)/\(mode)")
    }

    /// The body of a plain GET of `path`, e.g. to change or count the versioned content.
    private func get(_ path: String) async throws -> String {
        let result = try await download(server.url(path)).run(in: TaskContext(id: "control"))
        return String(decoding: try #require(result as? DownloadedData).data, as: UTF8.self)
    }

    private var requestCount: Int {
        get async throws { try #require(Int(try await get("/count/\(key)"))) }
    }

    private func fetched(_ action: DownloadOperation) async throws -> DownloadedData {
        try #require(try await action.run(in: TaskContext(id: "op")) as? DownloadedData)
    }

    @Test func theResponsesValidatorsAreKeptWithTheBody() async throws {
        let both = try await fetched(try download(versioned("both")))
        #expect(both.data == Data("first\n".utf8))
        #expect(both.validators == ["etag": "\"v1\"", "last-modified": "Tue, 14 Nov 2023 22:14:20 GMT"])
        #expect(try await fetched(try download(versioned("etag"))).validators == ["etag": "\"v1\""])
        #expect(try await fetched(try download(versioned("none"))).validators == [:])
        #expect(try await requestCount == 3)
    }

    @Test(arguments: ["both", "etag", "last-modified"])
    func aNotModifiedAnswerMeansTheStoredBodyIsCurrent(mode: String) async throws {
        let action = try download(versioned(mode))
        let stored = try await fetched(action)
        #expect(try await action.revalidate(validators: stored.validators, in: TaskContext(id: "op")) == nil)
        #expect(try await requestCount == 2)
    }

    @Test func changedContentComesBackFreshWithItsNewValidators() async throws {
        let action = try download(versioned("both"))
        let stored = try await fetched(action)
        #expect(try await get("/set/\(key)/second") == "set\n")
        let fresh = try await action.revalidate(validators: stored.validators, in: TaskContext(id: "op"))
        let body = try #require(fresh as? DownloadedData)
        #expect(body == DownloadedData(url: versioned("both"), data: Data("second\n".utf8)))
        #expect(body.validators == ["etag": "\"v2\"", "last-modified": "Tue, 14 Nov 2023 22:15:20 GMT"])
        #expect(try await requestCount == 2)
    }

    @Test func aFreshBodyIsCheckedLikeAnyDownload() async throws {
        let action = try download(versioned("both"), ["max_bytes": .integer(6)])
        let stored = try await fetched(action)
        #expect(try await get("/set/\(key)/much-longer") == "set\n")
        await #expect(throws: DownloadError.tooLarge(url: versioned("both"), limit: 6)) {
            try await action.revalidate(validators: stored.validators, in: TaskContext(id: "op"))
        }
    }

    @Test func withoutValidatorsTheURLIsDownloadedAgain() async throws {
        let action = try download(versioned("none"))
        _ = try await fetched(action)
        let fresh = try await action.revalidate(validators: [:], in: TaskContext(id: "op"))
        #expect((fresh as? DownloadedData)?.data == Data("first\n".utf8))
        #expect(try await requestCount == 2)
    }

    @Test func aStoredValidatorWithALineBreakIsNotSent() async throws {
        let action = try download(versioned("both"))
        let fresh = try await action.revalidate(
            validators: ["etag": "\"v1\"\r\nX-Injected: yes"], in: TaskContext(id: "op"))
        #expect((fresh as? DownloadedData)?.data == Data("first\n".utf8))
    }

    @Test func aPinnedBodyIsCurrentWithoutAnyRequest() async throws {
        let pinned = ContentDigest.sha256(of: Data("first\n".utf8)).hex
        let action = try download(versioned("both"), ["sha256": .string(pinned)])
        #expect(try await action.revalidate(validators: ["etag": "\"v0\""], in: TaskContext(id: "op")) == nil)
        #expect(try await action.revalidate(validators: [:], in: TaskContext(id: "op")) == nil)
        #expect(try await requestCount == 0)
    }

    @Test func aLocalFileIsKeyedByContentAndNeverRevalidated() async throws {
        let directory = try makeScratchDirectory()
        let file = directory.appendingPathComponent("data.txt")
        try Data("local\n".utf8).write(to: file)
        let digest = ContentDigest.sha256(of: Data("local\n".utf8))
        let byPath = try download("data.txt", directory: directory.path)
        #expect(try await addedKeyComponents(of: byPath).lines == ["file.data.txt=\(digest)"])
        #expect(try await fetched(byPath).validators == [:])
        #expect(try await byPath.revalidate(validators: [:], in: TaskContext(id: "op")) == nil)
        let byURL = try download(file.absoluteString)
        #expect(try await addedKeyComponents(of: byURL).lines == ["file.\(file.path)=\(digest)"])
        try Data("changed\n".utf8).write(to: file)
        #expect(
            try await addedKeyComponents(of: byPath)["file.data.txt"]
                == ContentDigest.sha256(of: Data("changed\n".utf8)).description)
    }

    @Test func onlyTheTimeLimitsAreLeftOutOfTheKey() async throws {
        let action = try download(versioned("both"))
        #expect(action.unkeyedParameters == ["connect_timeout", "stall_timeout"])
        #expect(action.cacheVersion == 1)
        #expect(action.outputFiles == [])
        #expect(try await addedKeyComponents(of: action).lines == [])
    }

    @Test func validatorsAreNotPartOfTheValue() async throws {
        let value = DownloadedData(url: "https://example.com/a", data: Data("a".utf8), validators: ["etag": "\"x\""])
        let trip = try await roundTrip(value, through: ResultRegistry(NetworkOperations.resultKinds))
        #expect(trip.decoded == value)
        #expect(trip.decoded.validators == [:])
        #expect(try await value.digest == DownloadedData(url: "https://example.com/a", data: Data("a".utf8)).digest)
    }

    @Test func everyKeyedParameterOfEveryNetworkTypeChangesTheKey() async throws {
        let directory = try makeScratchDirectory()
        for name in ["in.txt", "other.in", "another.in"] {
            try Data(name.utf8).write(to: directory.appendingPathComponent(name))
        }
        let base: [String: [String: ParameterValue]] = [
            "exec": ["command": .list(["sh"])], "load": ["path": .string("in.txt")],
            "save": ["path": .string("out.txt")],
            "download": ["url": .string("http://127.0.0.1:9/photo.jpg")],
        ]
        #expect(try await parametersLeavingTheKey(registry: .network, base: base, directory: directory.path) == [])
    }
}
