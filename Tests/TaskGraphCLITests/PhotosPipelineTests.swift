import Foundation
import TaskGraphImaging
import TestSupport
import Testing

/// The project's main job, end to end: `pipelines/photos.yaml`, offline and from a real HTTP
/// server on 127.0.0.1.
@Suite struct PhotosPipelineTests {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../..").standardized
    private static let pipeline = repository.appendingPathComponent("pipelines/photos.yaml").path
    private static let photos = ["mountains", "sunset", "seedling"]
    private static let outputs =
        photos.map { "\($0).jpg" } + photos.map { "thumbnails/\($0).jpg" } + ["contact-sheet.jpg"]

    private func run(_ extra: [String], output: URL) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await TaskGraphProcess.run(
            ["run", Self.pipeline, "--output", output.path] + extra, in: output.deletingLastPathComponent())
    }

    @Test func runsOfflineAndFromAServerWithIdenticalResults() async throws {
        let directory = try fixtureDirectory()
        let offline = directory.appendingPathComponent("offline")
        let result = try await run([], output: offline)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("26 ok in "))
        for name in Self.outputs {
            let data = try Data(contentsOf: offline.appendingPathComponent(name))
            let image = try await ImageCodec.decode(data)
            if name.hasPrefix("thumbnails/") { #expect(max(image.width, image.height) == 320) }
            if Self.photos.contains(where: { name == "\($0).jpg" }) { #expect(image.width == 1200) }
        }
        let sheet = try await ImageCodec.decode(Data(contentsOf: offline.appendingPathComponent("contact-sheet.jpg")))
        // 3 columns of 360 px cells and 16 px padding; one row of 270 px pictures plus captions.
        #expect((sheet.width, sheet.height) == (1144, 329))

        let server = try await TestServerProcess.start(
            files: Self.repository.appendingPathComponent("pipelines/photos"))
        defer { withExtendedLifetime(server) {} }
        let online = directory.appendingPathComponent("online")
        let served = try await run(["--var", "source=http://127.0.0.1:\(server.port)/slow-file/0"], output: online)
        #expect(served.status == 0, "\(served.stderr)")
        for name in Self.outputs {
            let first = try Data(contentsOf: offline.appendingPathComponent(name))
            let second = try Data(contentsOf: online.appendingPathComponent(name))
            #expect(first == second, "\(name) differs between the offline and the served run")
        }
    }
}
