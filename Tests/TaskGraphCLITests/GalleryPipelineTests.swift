import Foundation
import TestSupport
import Testing

/// `pipelines/gallery.yaml`: the chain of photos.yaml made for every item of an index served
/// by a real HTTP server on 127.0.0.1 (`foreach: {from: index}`).
@Suite struct GalleryPipelineTests {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../..").standardized
    private static let photos = ["mountains", "sunset", "seedling"]
    private static let outputs = photos.map { "\($0).jpg" } + ["contact-sheet.jpg"]

    /// The ids the summary shows as run (`ok`).
    private static func ran(_ stderr: String) -> Set<String> {
        Set(
            stderr.split(separator: "\n").compactMap { line in
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                return columns.count >= 2 && columns[1] == "ok" ? String(columns[0]) : nil
            })
    }

    @Test func runsEveryItemOfAServedIndexReusesThemAndRerunsOnlyAChangedOne() async throws {
        let directory = try fixtureDirectory()
        let served = directory.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        for photo in Self.photos {
            try FileManager.default.copyItem(
                at: Self.repository.appendingPathComponent("pipelines/photos/\(photo).jpg.enc"),
                to: served.appendingPathComponent("\(photo).jpg.enc"))
        }
        let index = served.appendingPathComponent("index.json")
        try FileManager.default.copyItem(
            at: Self.repository.appendingPathComponent("pipelines/gallery/index.json"), to: index)
        let server = try await TestServerProcess.start(files: served)
        defer { withExtendedLifetime(server) {} }
        let base = "http://127.0.0.1:\(server.port)/slow-file/0"
        let cache = directory.appendingPathComponent("cache").path
        func gallery(_ options: [String] = []) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await TaskGraphProcess.run(
                [
                    "run", Self.repository.appendingPathComponent("pipelines/gallery.yaml").path, "--no-progress",
                    "--output", "gallery", "--cache-dir", cache, "--var", "index=\(base)/index.json", "--var",
                    "base=\(base)",
                ]
                    + options,
                in: directory)
        }

        let first = try await gallery()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("22 ok in "), "\(first.stderr)")
        // The same chain as photos.yaml: the same bytes.
        let photos = try await TaskGraphProcess.run(
            ["run", Self.repository.appendingPathComponent("pipelines/photos.yaml").path, "--output", "photos"],
            in: directory)
        #expect(photos.status == 0, "\(photos.stderr)")
        for name in Self.outputs {
            let expected = try Data(contentsOf: directory.appendingPathComponent("photos/\(name)"))
            let made = try Data(contentsOf: directory.appendingPathComponent("gallery/\(name)"))
            #expect(made == expected, "\(name) differs from photos.yaml's")
        }

        let again = try await gallery()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.ran(again.stderr).subtracting(["index", "index[*]"]) == [], "\(again.stderr)")

        // sunset now shows the seedling's picture: only its chain and the fan-ins run (its
        // download reuses the seedling's, which has the same URL).
        let changed = try String(contentsOf: index, encoding: .utf8)
            .replacingOccurrences(of: "\"file\": \"sunset.jpg.enc\"", with: "\"file\": \"seedling.jpg.enc\"")
        try changed.write(to: index, atomically: true, encoding: .utf8)
        let third = try await gallery(["--explain"])
        #expect(third.status == 0, "\(third.stderr)")
        // The explanation names the item that changed.
        #expect(
            third.stdout.contains(
                "\ndecrypt[sunset]: run: input changed: download[sunset] <- parameter changed: url "
                    + "\(base)/sunset.jpg.enc -> "
                    + "\(base)/seedling.jpg.enc in download[sunset]\n"), "\(third.stdout)")
        let chain = ["decrypt", "tilt", "tone", "save", "sheet-cell"].map { "\($0)[sunset]" }
        #expect(
            Self.ran(third.stderr) == Set(["index", "index[*]", "contact-sheet", "save-contact-sheet"] + chain),
            "\(third.stderr)")
        let sunset = try Data(contentsOf: directory.appendingPathComponent("gallery/sunset.jpg"))
        #expect(sunset == (try Data(contentsOf: directory.appendingPathComponent("photos/seedling.jpg"))))
    }

    @Test func anIndexWithTwoItemsOfOneIdFailsItsExpansionNamingTheItem() async throws {
        let directory = try fixtureDirectory()
        try #"[{"name": "sunset", "file": "sunset.jpg.enc"}, {"name": "sunset", "file": "mountains.jpg.enc"}]"#
            .write(to: directory.appendingPathComponent("index.json"), atomically: true, encoding: .utf8)
        let result = try await TaskGraphProcess.run(
            [
                "run", Self.repository.appendingPathComponent("pipelines/gallery.yaml").path, "--no-progress",
                "--output", "gallery", "--var", "index=\(directory.path)/index.json",
            ],
            in: directory)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("FAILED    index[*]: item 2 of 'index' has the id 'sunset', as item 1 has"),
            "\(result.stderr)")
        #expect(result.stderr.contains("contact-sheet"))
    }
}
