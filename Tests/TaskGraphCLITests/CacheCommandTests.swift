import Foundation
import TaskGraphCore
import Testing

/// `taskgraph cache status|gc|verify|clear` against the real binary, on stores written here in
/// the documented layout (docs/cache.md): the test reads the format as another tool would.
@Suite struct CacheCommandTests {
    /// A scratch directory with a store at `cache/` and an empty configuration directory.
    private struct Scratch {
        let directory: URL
        var cache: String { directory.path + "/cache" }
        var environment: [String: String?] {
            ["XDG_CONFIG_HOME": directory.path + "/config", "TZ": "UTC", "TASKGRAPH_CACHE_DIR": nil]
        }

        init() throws {
            directory = try fixtureDirectory()
        }

        func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await TaskGraphProcess.run(arguments + ["--cache-dir", cache], in: directory, environment: environment)
        }

        /// Stores `count` entries, each a record naming a `bytes` result of `size` bytes; entry
        /// `i` was last used `count - i` days ago.
        /// - Returns: the entries' blob paths.
        @discardableResult
        func fill(_ count: Int, size: Int = 1000) throws -> [String] {
            var blobs: [String] = []
            for index in 0..<count {
                var blob = Data("TGRS".utf8) + [1]
                appendString("bytes", to: &blob)
                appendBytes(Data(repeating: UInt8(index), count: size), to: &blob)
                let digest = ContentDigest.sha256(of: blob)
                let blobPath = try write(blob, to: "blobs", named: digest.hex, age: 40 * 86_400)
                var record = Data("TGAR".utf8) + [4] + digest.bytes
                record.append(0) // the result is in its blob
                appendString("bytes", to: &record)
                appendString("1.0 kB", to: &record)
                record.append(contentsOf: withUnsafeBytes(of: Double(0.5).bitPattern.bigEndian, Array.init))
                record.append(contentsOf: withUnsafeBytes(of: Double(1.8e9).bitPattern.bigEndian, Array.init))
                appendString("entry[\(index)]", to: &record)
                record += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
                appendString("operation", to: &record)
                appendString("entry \(index)", to: &record)
                let key = ContentDigest.sha256(of: Data("key \(index)".utf8))
                try write(record, to: "records", named: key.hex, age: Double(count - index) * 86_400)
                blobs.append(blobPath)
            }
            return blobs
        }

        @discardableResult
        private func write(_ data: Data, to kind: String, named hex: String, age: Double) throws -> String {
            let directory = cache + "/v1/\(kind)/" + hex.prefix(2)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/" + hex
            try data.write(to: URL(fileURLWithPath: path))
            let time = timespec(tv_sec: Int(Date().timeIntervalSince1970 - age), tv_nsec: 0)
            utimensat(AT_FDCWD, path, [time, time], 0)
            return path
        }

        private func appendString(_ text: String, to data: inout Data) {
            appendBytes(Data(text.utf8), to: &data)
        }

        private func appendBytes(_ bytes: Data, to data: inout Data) {
            data.append(contentsOf: withUnsafeBytes(of: UInt64(bytes.count).bigEndian, Array.init))
            data.append(bytes)
        }
    }

    /// The default cache (here `TASKGRAPH_CACHE_DIR`'s) may not exist yet: it is empty. A
    /// `--cache-dir` that does not exist is an error (`NewUserMessagesTests`).
    @Test func statusOfAnEmptyCache() async throws {
        let scratch = try Scratch()
        var environment = scratch.environment
        environment["TASKGRAPH_CACHE_DIR"] = scratch.cache
        let result = try await TaskGraphProcess.run(
            ["cache", "status"], in: scratch.directory, environment: environment)
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                cache: \(scratch.cache)
                size: 0 B of 5.4 GB
                records: 0
                blobs: 0
                recent runs: none

                """)
        #expect(!FileManager.default.fileExists(atPath: scratch.cache), "status creates nothing")
    }

    @Test func statusCountsEntriesAndShowsRecentRuns() async throws {
        let scratch = try Scratch()
        try scratch.fill(3)
        try Data("1795000000\t4\t1\t/work/a.yaml\n1795003600.5\t5\t0\t/work/b.yaml\n".utf8)
            .write(to: URL(fileURLWithPath: scratch.cache + "/v1/runs"))
        try FileManager.default.createDirectory(
            atPath: scratch.directory.path + "/config/taskgraph", withIntermediateDirectories: true)
        try Data("cache_max_size: 20GiB\n".utf8).write(
            to: URL(fileURLWithPath: scratch.directory.path + "/config/taskgraph/config.yaml"))
        let result = try await scratch.run(["cache", "status"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                cache: \(scratch.cache)
                size: 3.6 kB of 21.5 GB
                records: 3
                blobs: 3
                recent runs (latest last):
                  2026-11-18 11:06:40  4 hits, 1 miss  /work/a.yaml
                  2026-11-18 12:06:40  5 hits, 0 misses  /work/b.yaml
                hits over these 2 runs: 9 of 10 (90 %)

                """)
    }

    @Test func gcEvictsTheLeastRecentlyUsed() async throws {
        let scratch = try Scratch()
        let blobs = try scratch.fill(4)
        let result = try await scratch.run(["cache", "gc", "--max-size", "2500B"])
        #expect(result.status == 0)
        #expect(result.stdout == "removed 2 records, 2 blobs and 0 temporary files: 4.7 kB -> 2.3 kB\n")
        #expect(blobs.map { FileManager.default.fileExists(atPath: $0) } == [false, false, true, true])
    }

    @Test func gcRemovesEntriesOlderThanTheAge() async throws {
        let scratch = try Scratch()
        let blobs = try scratch.fill(4)
        let result = try await scratch.run(["cache", "gc", "--max-age", "2.5d"])
        #expect(result.status == 0)
        #expect(result.stdout == "removed 2 records, 2 blobs and 0 temporary files: 4.7 kB -> 2.3 kB\n")
        #expect(blobs.map { FileManager.default.fileExists(atPath: $0) } == [false, false, true, true])
    }

    @Test func verifyRemovesACorruptBlobAndItsRecord() async throws {
        let scratch = try Scratch()
        let blobs = try scratch.fill(3)
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: blobs[1]))
        let result = try await scratch.run(["cache", "verify"])
        #expect(result.status == 0)
        #expect(result.stdout == "checked 3 blobs and 3 records: removed 1 corrupt blob and 1 record\n")
        let status = try await scratch.run(["cache", "status"])
        #expect(status.stdout.contains("records: 2\nblobs: 2\n"))
    }

    @Test func clearEmptiesTheCache() async throws {
        let scratch = try Scratch()
        try scratch.fill(3)
        let result = try await scratch.run(["cache", "clear"])
        #expect(result.status == 0)
        #expect(result.stdout == "removed 3 records and 3 blobs from \(scratch.cache)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.cache) == [])
    }

    @Test func aWrongSizeIsAUsageError() async throws {
        let result = try await Scratch().run(["cache", "gc", "--max-size", "lots"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --max-size: 'lots' is not a size such as 5GiB, 500MB or 1G\n"))
    }

    @Test func aWrongAgeIsAUsageError() async throws {
        let result = try await Scratch().run(["cache", "gc", "--max-age", "soon"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --max-age: 'soon' is not a duration such as 30d, 12h or 90m\n"))
    }

    @Test func aWrongConfigurationFileIsNamed() async throws {
        let scratch = try Scratch()
        let config = scratch.directory.path + "/config/taskgraph/config.yaml"
        try FileManager.default.createDirectory(
            atPath: scratch.directory.path + "/config/taskgraph", withIntermediateDirectories: true)
        try Data("# settings\ncache_max_size: lots\n".utf8).write(to: URL(fileURLWithPath: config))
        let result = try await scratch.run(["cache", "gc"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "taskgraph: error: \(config):2: cache_max_size: 'lots' is not a size such as 5GiB, 500MB or 1G\n")
    }
}
