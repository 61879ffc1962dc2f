import Foundation
import Testing

/// Keys that travel (key version 3): the same pipeline checked out at another path, run by
/// another user with another `HOME`, computes the same keys for the same inputs, so a store
/// shared between them (or a remote cache) serves both; the files a hit restores are written
/// where this run writes them, never left at the other checkout's paths.
@Suite struct TravellingKeysTests {
    private static let pipeline = """
        version: 1
        name: travel
        operations:
          count:
            op: exec
            command: [sh, -c, 'wc -c < data.txt | tr -d " " > counted.txt; echo "$(cat counted.txt) bytes"']
            inputs: [data.txt]
            outputs: [counted.txt]
          keep: {op: save, needs: count, path: count.txt}
        """

    /// A checkout of the pipeline in `name` under `root`, with its own home directory.
    private func checkout(_ name: String, in root: URL, data: String = "twelve bytes") throws -> URL {
        let directory = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("home"), withIntermediateDirectories: true)
        try write(Self.pipeline, to: "travel.yaml", in: directory)
        try write(data, to: "data.txt", in: directory)
        return directory
    }

    /// `taskgraph run travel.yaml --explain` in `checkout`, as its own user, on `store`.
    private func run(in checkout: URL, user: String, store: URL, output: String = "out") async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try await TaskGraphProcess.run(
            ["run", "travel.yaml", "--output", output, "--no-progress", "--explain"], in: checkout,
            environment: [
                "TASKGRAPH_CACHE_DIR": store.path, "HOME": checkout.appendingPathComponent("home").path,
                "USER": user, "TERM": user == "ci" ? "dumb" : "xterm", "TMPDIR": checkout.path,
            ])
    }

    @Test func anotherCheckoutRunByAnotherUserReusesEveryResultAndWritesItsOwnFiles() async throws {
        let root = try fixtureDirectory()
        let store = root.appendingPathComponent("store")
        let first = try checkout("laptop", in: root)
        let cold = try await run(in: first, user: "ann", store: store)
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(cold.stdout == "count: run: new\nkeep: run: new\n", "\(cold.stderr)")

        let second = try checkout("ci/checkout", in: root)
        let reused = try await run(in: second, user: "ci", store: store)
        #expect(reused.status == 0, "\(reused.stderr)")
        #expect(
            reused.stdout == """
                count: cached: output missing: counted.txt (restored)
                keep: cached: output missing: out/count.txt (restored)

                """, "\(reused.stderr)")
        #expect(lines(of: "counted.txt", in: second) == ["12"])
        #expect(lines(of: "out/count.txt", in: second) == ["12 bytes"])

        // The first checkout's files were left alone, and its own run still finds them.
        let again = try await run(in: first, user: "ann", store: store)
        #expect(again.stdout == "count: cached\nkeep: cached\n", "\(again.stderr)")
    }

    @Test func aChangedInputStillChangesTheKeyInAnotherCheckout() async throws {
        let root = try fixtureDirectory()
        let store = root.appendingPathComponent("store")
        _ = try await run(in: try checkout("one", in: root), user: "ann", store: store)
        let changed = try checkout("two", in: root, data: "thirteen byte")
        let result = try await run(in: changed, user: "bob", store: store)
        #expect(result.stdout == "count: run: new\nkeep: run: new\n", "\(result.stderr)")
        #expect(lines(of: "out/count.txt", in: changed) == ["13 bytes"])
    }

    @Test func aSaveToAnotherOutputDirectoryWritesItsFileThere() async throws {
        let root = try fixtureDirectory()
        let store = root.appendingPathComponent("store")
        let directory = try checkout("one", in: root)
        _ = try await run(in: directory, user: "ann", store: store)
        let elsewhere = try await run(in: directory, user: "ann", store: store, output: "elsewhere")
        #expect(
            elsewhere.stdout == "count: cached\nkeep: cached: output missing: elsewhere/count.txt (restored)\n",
            "\(elsewhere.stderr)")
        #expect(lines(of: "elsewhere/count.txt", in: directory) == ["12 bytes"])
        #expect(lines(of: "out/count.txt", in: directory) == ["12 bytes"])
    }

    @Test func aVariableNamedInEnvPassthroughIsKeyed() async throws {
        let root = try fixtureDirectory()
        let store = root.appendingPathComponent("store")
        let pipeline = """
            version: 1
            name: home
            operations:
              show: {op: exec, command: [sh, -c, 'echo "$HOME" | wc -c'], env_passthrough: [HOME], cache: true}
            """
        var outputs: [String] = []
        for name in ["one", "two"] {
            let directory = try checkout(name, in: root)
            try write(pipeline, to: "home.yaml", in: directory)
            let result = try await TaskGraphProcess.run(
                ["run", "home.yaml", "--no-progress", "--explain"], in: directory,
                environment: ["TASKGRAPH_CACHE_DIR": store.path, "HOME": directory.appendingPathComponent("home").path])
            outputs.append(result.stdout)
        }
        #expect(outputs == ["show: run: new\n", "show: run: new\n"])
    }
}
