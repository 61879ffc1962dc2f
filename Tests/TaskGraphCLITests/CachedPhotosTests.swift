import Foundation
import Testing

/// The photos pipeline against a store shared by successive runs: reuse, explanations with root
/// causes, restored outputs, damaged blobs, concurrent runs. One test at a time: each runs the
/// (debug-built, CPU-heavy) pipeline several times, and in parallel they would starve the
/// timing-sensitive signal tests beside them.
@Suite(.serialized) struct CachedPhotosTests {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../..").standardized
    private static let outputs =
        ["mountains", "sunset", "seedling"].flatMap { ["\($0).jpg", "thumbnails/\($0).jpg"] }
        + ["contact-sheet.jpg"]

    /// A directory holding a copy of the photos pipeline (`photos.yaml`, `photos/`) and a cache.
    private func workspace() throws -> URL {
        let directory = try fixtureDirectory()
        let pipelines = Self.repository.appendingPathComponent("pipelines")
        try FileManager.default.copyItem(
            at: pipelines.appendingPathComponent("photos.yaml"), to: directory.appendingPathComponent("photos.yaml"))
        try FileManager.default.copyItem(
            at: pipelines.appendingPathComponent("photos"), to: directory.appendingPathComponent("photos"))
        return directory
    }

    private func run(_ arguments: [String], in directory: URL) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try await TaskGraphProcess.run(
            arguments, in: directory,
            environment: ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path])
    }

    private func contents(_ directory: URL) throws -> [String: Data] {
        try Dictionary(
            uniqueKeysWithValues: Self.outputs.map { ($0, try Data(contentsOf: directory.appendingPathComponent($0))) })
    }

    private func explanation(of id: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(id + ": ") }.map { String($0.dropFirst(id.count + 2)) }
    }

    @Test func aSecondRunReusesEverythingAndLeavesTheFilesAlone() async throws {
        let directory = try workspace()
        let first = try await run(["run", "photos.yaml", "--output", "out", "--no-progress"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("26 ok in "))
        let out = directory.appendingPathComponent("out")
        let before = try contents(out)
        let inode =
            try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("sunset.jpg").path)[
                .systemFileNumber] as? Int
        let second = try await run(
            ["run", "photos.yaml", "--output", "out", "--no-progress", "--explain"], in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("26 cached in "), "\(second.stderr)")
        #expect(second.stdout.split(separator: "\n").count == 26)
        #expect(second.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(": cached") }, "\(second.stdout)")
        #expect(try contents(out) == before)
        #expect(
            try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("sunset.jpg").path)[
                .systemFileNumber] as? Int == inode)
    }

    @Test func aChangedParameterRerunsItsChainAndTheExplanationNamesTheRootCause() async throws {
        let directory = try workspace()
        let first = try await run(["run", "photos.yaml", "--output", "out", "--no-progress"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let file = directory.appendingPathComponent("photos.yaml")
        let yaml = try String(contentsOf: file, encoding: .utf8)
        try yaml.replacingOccurrences(of: "blur_radius: 6", with: "blur_radius: 8").write(
            to: file, atomically: true, encoding: .utf8)

        let preview = try await run(
            ["explain", "photos.yaml", "tilt[sunset]", "tone[sunset]", "thumbnail"], in: directory)
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(
            preview.stdout == """
                tilt[sunset]: run: parameter changed: blur_radius 6 -> 8
                tone[sunset]: run: input changed: tilt[sunset] <- parameter changed: blur_radius 6 -> 8 in tilt[sunset]
                thumbnail[mountains]: cached
                thumbnail[sunset]: cached
                thumbnail[seedling]: cached

                """)

        let second = try await run(
            ["run", "photos.yaml", "--output", "out", "--no-progress", "--explain"], in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        let output = second.stdout
        #expect(explanation(of: "tilt[sunset]", in: output) == "run: parameter changed: blur_radius 6 -> 8")
        #expect(
            explanation(of: "tone[sunset]", in: output)
                == "run: input changed: tilt[sunset] <- parameter changed: blur_radius 6 -> 8 in tilt[sunset]")
        #expect(
            explanation(of: "save[sunset]", in: output)
                == "run: input changed: tone[sunset] <- parameter changed: blur_radius 6 -> 8 in tilt[sunset]")
        for unaffected in ["download[sunset]", "decrypt[sunset]", "thumbnail[sunset]", "save-thumbnail[sunset]"] {
            #expect(explanation(of: unaffected, in: output) == "cached", "\(unaffected)")
        }
        // The chain of each photo ran: tilt, tone, save, sheet-cell; then the contact sheet and its save.
        #expect(second.stderr.contains("14 ok, 12 cached in "), "\(second.stderr)")
    }

    @Test func aDeletedOutputIsRestoredFromTheStore() async throws {
        let directory = try workspace()
        let first = try await run(["run", "photos.yaml", "--output", "out", "--no-progress"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let out = directory.appendingPathComponent("out")
        let before = try contents(out)
        try FileManager.default.removeItem(at: out.appendingPathComponent("sunset.jpg"))
        let second = try await run(
            ["run", "photos.yaml", "--output", "out", "--no-progress", "--explain"], in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            explanation(of: "save[sunset]", in: second.stdout) == "cached: output missing: out/sunset.jpg (restored)")
        #expect(second.stderr.contains("26 cached in "))
        #expect(try contents(out) == before)
    }

    @Test func aDamagedBlobIsDetectedRemovedAndRecomputed() async throws {
        let directory = try workspace()
        let clean = try await run(["run", "photos.yaml", "--output", "out", "--no-progress"], in: directory)
        #expect(clean.status == 0, "\(clean.stderr)")
        // Flip one byte in the middle of every stored blob.
        let cache = directory.appendingPathComponent("cache")
        let blobs = FileManager.default.enumerator(atPath: cache.path)!.compactMap { $0 as? String }
            .filter { $0.contains("blobs/") && !$0.hasSuffix("/") }
        var flipped = 0
        for blob in blobs {
            let path = cache.appendingPathComponent(blob).path
            guard var data = FileManager.default.contents(atPath: path), data.count > 64 else { continue }
            data[data.count / 2] ^= 0x01
            try data.write(to: URL(fileURLWithPath: path))
            flipped += 1
        }
        #expect(flipped > 0)
        // A new tone needs tilt's stored result: it is found damaged, and tilt runs again.
        let file = directory.appendingPathComponent("photos.yaml")
        let yaml = try String(contentsOf: file, encoding: .utf8)
        try yaml.replacingOccurrences(of: "intensity: 0.8", with: "intensity: 0.7").write(
            to: file, atomically: true, encoding: .utf8)
        let damaged = try await run(["run", "photos.yaml", "--output", "out", "--no-progress"], in: directory)
        #expect(damaged.status == 0, "\(damaged.stderr)")
        #expect(damaged.stderr.contains("corrupt cache entry sha256:"), "\(damaged.stderr)")
        #expect(damaged.stderr.contains("recomputed"), "\(damaged.stderr)")
        // The same files as a run with a store of its own.
        let fresh = try await TaskGraphProcess.run(
            ["run", "photos.yaml", "--output", "fresh", "--no-progress"], in: directory)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(
            try contents(directory.appendingPathComponent("out")) == contents(directory.appendingPathComponent("fresh"))
        )
    }

    @Test func twoRunsAtOnceOnOneStoreBothSucceed() async throws {
        let directory = try workspace()
        let environment = ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path]
        let first = try TaskGraphProcess(
            ["run", "photos.yaml", "--output", "one", "--no-progress"], in: directory, environment: environment)
        let second = try TaskGraphProcess(
            ["run", "photos.yaml", "--output", "two", "--no-progress"], in: directory, environment: environment)
        let statuses = (await first.waitForExit(), await second.waitForExit())
        #expect(statuses == (0, 0), "\(first.standardError)\n\(second.standardError)")
        #expect(
            try contents(directory.appendingPathComponent("one")) == contents(directory.appendingPathComponent("two")))
        let third = try await run(["run", "photos.yaml", "--output", "one", "--no-progress"], in: directory)
        #expect(third.stderr.contains("26 cached in "), "\(third.stderr)")
    }
}
