import Foundation
import TaskGraphCore
import Testing

/// The remote cache against a real nginx (WebDAV `PUT`): two machines are two checkouts with
/// their own local stores and `HOME`s, sharing results through the server. One test at a time:
/// several run the (debug-built, CPU-heavy) photos pipeline.
@Suite(.serialized) struct RemoteCacheTests {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../..").standardized
    private static let photoOutputs =
        ["mountains", "sunset", "seedling"].flatMap { ["\($0).jpg", "thumbnails/\($0).jpg"] }
        + ["contact-sheet.jpg"]
    /// A small pipeline: a program's output file and a saved result.
    static let countPipeline = """
        version: 1
        name: count
        output: out
        operations:
          count:
            op: exec
            command: [sh, -c, 'wc -c < data.txt | tr -d " " > counted.txt; echo "$(cat counted.txt) bytes"']
            inputs: [data.txt]
            outputs: [counted.txt]
          keep: {op: save, needs: count, path: count.txt}
        """

    /// A checkout of the photos pipeline at `name` below `root`, with its own home.
    private func photosCheckout(_ name: String, in root: URL) throws -> URL {
        let directory = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("home"), withIntermediateDirectories: true)
        let pipelines = Self.repository.appendingPathComponent("pipelines")
        for item in ["photos.yaml", "photos"] {
            try FileManager.default.copyItem(
                at: pipelines.appendingPathComponent(item), to: directory.appendingPathComponent(item))
        }
        return directory
    }

    /// A checkout of the count pipeline at `name` below `root`, with its own home.
    func countCheckout(_ name: String, in root: URL) throws -> URL {
        let directory = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("home"), withIntermediateDirectories: true)
        try write(Self.countPipeline, to: "count.yaml", in: directory)
        try write("twelve bytes", to: "data.txt", in: directory)
        return directory
    }

    /// Machines A and B, checkouts of the count pipeline, after a run on machine A uploaded its
    /// results to `server`; `remote` is the option naming it.
    func countUploadedByMachineA(to server: NginxServer) async throws -> (a: URL, b: URL, remote: [String]) {
        let root = try fixtureDirectory()
        let machineA = try countCheckout("a", in: root)
        let machineB = try countCheckout("b", in: root)
        let remote = ["--remote-cache", server.url("cache")]
        _ = try await run(["run", "count.yaml", "--no-progress"] + remote, in: machineA)
        return (machineA, machineB, remote)
    }

    /// `taskgraph arguments…` in `checkout`, as a machine of its own: its store and `HOME` are
    /// inside it.
    func run(_ arguments: [String], in checkout: URL, environment: [String: String?] = [:]) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try await TaskGraphProcess.run(
            arguments, in: checkout,
            environment: [
                "TASKGRAPH_CACHE_DIR": checkout.appendingPathComponent("store").path,
                "HOME": checkout.appendingPathComponent("home").path, "TASKGRAPH_REMOTE_CACHE": nil,
            ].merging(environment) { $1 })
    }

    func warnings(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("taskgraph: warning:") }
    }

    @Test func machineBReusesEveryResultMachineAUploadedAndDownloadsOnlyTheSavedFiles() async throws {
        let server = try NginxServer()
        let root = try fixtureDirectory()
        let machineA = try photosCheckout("a", in: root)
        let machineB = try photosCheckout("b/another/checkout", in: root)
        let cold = try await run(
            ["run", "photos.yaml", "--no-progress", "--remote-cache", server.url("cache")], in: machineA)
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(warnings(cold.stderr).isEmpty, "\(cold.stderr)")
        #expect(server.requests().filter { $0.method == "PUT" && $0.path.hasPrefix("/cache/ac/") }.count == 26)
        let before = server.requests().count

        let warm = try await run(
            ["run", "photos.yaml", "--no-progress", "--explain", "--remote-cache", server.url("cache")], in: machineB)
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(warm.stderr.contains("26 cached in "), "\(warm.stderr)")
        #expect(warm.stdout.split(separator: "\n").filter { $0.contains(": cached") }.count == 26, "\(warm.stdout)")
        #expect(warm.stdout.split(separator: "\n").allSatisfy { $0.contains(": cached") }, "\(warm.stdout)")
        for output in Self.photoOutputs {
            let path = "out/photos/" + output
            #expect(
                try Data(contentsOf: machineA.appendingPathComponent(path))
                    == Data(contentsOf: machineB.appendingPathComponent(path)),
                "\(path)")
        }
        let requests = server.requests().dropFirst(before)
        #expect(!requests.contains { $0.method == "PUT" })
        // The saved files came down, and besides them only small results (a save's, naming
        // its file): no image an intermediate operation computed.
        let saved = Set(
            try Self.photoOutputs.map {
                ContentDigest.sha256(of: try Data(contentsOf: machineB.appendingPathComponent("out/photos/" + $0))).hex
            })
        let downloaded = requests.filter { $0.method == "GET" && $0.path.hasPrefix("/cache/cas/") }
            .map { String($0.path.dropFirst("/cache/cas/".count)) }
        #expect(saved.isSubset(of: Set(downloaded)))
        for hex in downloaded where !saved.contains(hex) {
            let size =
                try FileManager.default.attributesOfItem(atPath: server.stored("cache/cas/" + hex).path)[.size] as? Int
            #expect(size ?? 0 < 1024, "an intermediate result was downloaded: \(hex)")
        }
    }

    /// Machine B's remote hits are copied into its local store, blobs and records: without the
    /// server, with its outputs removed, it reuses and restores them all.
    @Test func remoteHitsAreCopiedIntoTheLocalStoreAndReusedWithoutTheServer() async throws {
        let server = try NginxServer()
        let (_, machineB, remote) = try await countUploadedByMachineA(to: server)
        let hits = try await run(["run", "count.yaml", "--no-progress"] + remote, in: machineB)
        #expect(hits.status == 0, "\(hits.stderr)")
        #expect(hits.stderr.contains("2 cached in "), "\(hits.stderr)")
        server.stop()
        for output in ["counted.txt", "out/count.txt"] {
            try FileManager.default.removeItem(at: machineB.appendingPathComponent(output))
        }

        let offline = try await run(["run", "count.yaml", "--no-progress", "--explain"], in: machineB)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(warnings(offline.stderr).isEmpty, "\(offline.stderr)")
        #expect(offline.stdout.split(separator: "\n").count == 2, "\(offline.stdout)")
        #expect(offline.stdout.split(separator: "\n").allSatisfy { $0.contains(": cached") }, "\(offline.stdout)")
        #expect(lines(of: "counted.txt", in: machineB) == ["12"])
        #expect(lines(of: "out/count.txt", in: machineB) == ["12 bytes"])
    }

    @Test func aReaderNeverUploads() async throws {
        let server = try NginxServer()
        let machine = try countCheckout("laptop", in: try fixtureDirectory())
        let result = try await run(
            ["run", "count.yaml", "--no-progress", "--remote-cache", server.url("cache"), "--remote-upload=false"],
            in: machine)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests().map(\.method) == ["GET", "GET"])
    }

    @Test func anUnreachableServerGivesOneWarningAndTheRunSucceeds() async throws {
        let server = try NginxServer()
        server.stop()
        let machine = try countCheckout("laptop", in: try fixtureDirectory())
        let result = try await run(
            ["run", "count.yaml", "--no-progress", "--remote-cache", server.url("cache")], in: machine)
        #expect(result.status == 0, "\(result.stderr)")
        let shown = warnings(result.stderr)
        #expect(shown.count == 1, "\(result.stderr)")
        #expect(
            shown.first?.hasPrefix("taskgraph: warning: the remote cache failed (GET ac/") == true, "\(result.stderr)")
        #expect(shown.first?.hasSuffix("; continuing with the local store") == true, "\(result.stderr)")
        #expect(lines(of: "out/count.txt", in: machine) == ["12 bytes"])
    }

    @Test func aURLThatIsNotHTTPGivesOneWarningAndTheRunSucceeds() async throws {
        let machine = try countCheckout("laptop", in: try fixtureDirectory())
        let result = try await run(
            ["run", "count.yaml", "--no-progress", "--remote-cache", "ftp://host/cache"], in: machine)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            warnings(result.stderr) == [
                "taskgraph: warning: the remote cache 'ftp://host/cache' is not an http:// or https:// URL; running "
                    + "without the remote cache"
            ], "\(result.stderr)")
        #expect(lines(of: "out/count.txt", in: machine) == ["12 bytes"])
    }

    @Test func aServerStoppedDuringTheRunGivesOneWarningAndTheRunSucceeds() async throws {
        let server = try NginxServer()
        let machine = try countCheckout("laptop", in: try fixtureDirectory())
        try write(
            """
            version: 1
            name: stop
            operations:
              first: {op: exec, command: [sh, -c, 'echo first > first.txt'], outputs: [first.txt]}
              stop:
                op: exec
                needs: first
                command: [sh, -c, 'kill $(cat \(server.prefix.path)/nginx.pid); while kill -0 $(cat\
             \(server.prefix.path)/nginx.pid) 2>/dev/null; do sleep 0.05; done; echo stopped > stopped.txt']
                outputs: [stopped.txt]
              after: {op: exec, needs: stop, command: [sh, -c, 'echo after > after.txt'], outputs: [after.txt]}
            """, to: "stop.yaml", in: machine)
        let result = try await run(
            ["run", "stop.yaml", "--no-progress", "--remote-cache", server.url("cache")], in: machine)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(warnings(result.stderr).count == 1, "\(result.stderr)")
        #expect(lines(of: "after.txt", in: machine) == ["after"])
    }

    @Test func aSignedCacheTakesOnlyRecordsSignedWithItsKey() async throws {
        let server = try NginxServer()
        let root = try fixtureDirectory()
        let remote = ["--remote-cache", server.url("cache"), "--remote-cache-key-env", "CACHE_KEY"]
        _ = try await run(
            ["run", "count.yaml", "--no-progress", "--remote-cache", server.url("cache")],
            in: try countCheckout("unsigned", in: root))
        let signed = try countCheckout("signed", in: root)
        let refused = try await run(
            ["run", "count.yaml", "--no-progress", "--explain"] + remote, in: signed, environment: ["CACHE_KEY": "k1"])
        #expect(refused.stdout == "count: run: new\nkeep: run: new\n", "\(refused.stderr)")
        let trusted = try await run(
            ["run", "count.yaml", "--no-progress", "--explain"] + remote, in: try countCheckout("trusted", in: root),
            environment: ["CACHE_KEY": "k1"])
        #expect(trusted.stdout.hasPrefix("count: cached"), "\(trusted.stderr)")
        let otherKey = try await run(
            ["run", "count.yaml", "--no-progress", "--explain"] + remote, in: try countCheckout("other", in: root),
            environment: ["CACHE_KEY": "k2"])
        #expect(otherKey.stdout == "count: run: new\nkeep: run: new\n", "\(otherKey.stderr)")
    }

    @Test func aCacheWantingATokenWorksWithTheHeaderAndWarnsOnceWithout() async throws {
        let server = try NginxServer()
        let root = try fixtureDirectory()
        let without = try await run(
            ["run", "count.yaml", "--no-progress", "--remote-cache", server.url("private")],
            in: try countCheckout("a", in: root))
        #expect(without.status == 0, "\(without.stderr)")
        #expect(
            warnings(without.stderr) == [
                "taskgraph: warning: the remote cache failed (GET ac/\(try recordKey(in: server)) answered HTTP 401); "
                    + "continuing with the local store"
            ], "\(without.stderr)")
        let header = [
            "--remote-cache", server.url("private"), "--remote-header", "Authorization: Bearer secret", "--events",
            "events.jsonl",
        ]
        let first = try countCheckout("b", in: root)
        let writer = try await run(["run", "count.yaml", "--no-progress"] + header, in: first)
        #expect(warnings(writer.stderr).isEmpty, "\(writer.stderr)")
        let events = try String(contentsOf: first.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(!events.contains("secret") && events.contains("Authorization: ***"), "\(events)")
        let reader = try await run(
            ["run", "count.yaml", "--no-progress", "--explain"] + header, in: try countCheckout("c", in: root))
        #expect(reader.stdout.hasPrefix("count: cached"), "\(reader.stderr)")
    }

    @Test func cacheStatusShowsEachRunsRemoteHitsMissesAndBytes() async throws {
        let server = try NginxServer()
        let root = try fixtureDirectory()
        let remote = ["--remote-cache", server.url("cache")]
        let writer = try countCheckout("ci", in: root)
        _ = try await run(["run", "count.yaml", "--no-progress"] + remote, in: writer)
        let reader = try countCheckout("laptop", in: root)
        _ = try await run(["run", "count.yaml", "--no-progress", "--remote-upload=false"] + remote, in: reader)
        let uploaded = server.requests().filter { $0.method == "PUT" }.count
        // Two records, each holding its result and its file: no blob.
        #expect(uploaded == 2)
        let written = try await run(["cache", "status"], in: writer)
        let writerLine = written.stdout.split(separator: "\n").first { $0.hasPrefix("    remote: ") }
        #expect(writerLine?.hasPrefix("    remote: 0 hits, 2 misses, 0 B down, ") == true, "\(written.stdout)")
        let read = try await run(["cache", "status"], in: reader)
        let readerLine = read.stdout.split(separator: "\n").first { $0.hasPrefix("    remote: ") }
        #expect(readerLine?.hasPrefix("    remote: 2 hits, 0 misses, ") == true, "\(read.stdout)")
        #expect(readerLine?.hasSuffix(" down, 0 B up") == true, "\(read.stdout)")
    }

    /// The first record key the server was asked for.
    private func recordKey(in server: NginxServer) throws -> String {
        String(
            server.requests().first { $0.path.hasPrefix("/private/ac/") }?.path.dropFirst("/private/ac/".count) ?? "")
    }
}
