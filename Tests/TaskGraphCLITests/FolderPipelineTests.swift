import Foundation
import Testing

/// `pipelines/folder.yaml`: every photo of a folder, thumbnails in two sizes by matrix, a
/// contact sheet; a photo added to the folder runs only its chain and the contact sheet.
@Suite struct FolderPipelineTests {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../..").standardized

    private let arguments = ["run", "folder.yaml", "--output", "out", "--no-progress"]

    /// A directory with a copy of pipelines/folder.yaml and its photos, and the environment that
    /// gives it a store of its own.
    private func folderCopy() throws -> (directory: URL, environment: [String: String]) {
        let directory = try fixtureDirectory()
        let pipelines = Self.repository.appendingPathComponent("pipelines")
        for name in ["folder.yaml", "folder"] {
            try FileManager.default.copyItem(
                at: pipelines.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        return (directory, ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path])
    }

    @Test func aPhotoAddedToTheFolderRunsOnlyItsChainAndTheContactSheet() async throws {
        let (directory, environment) = try folderCopy()
        let first = try await TaskGraphProcess.run(arguments, in: directory, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("\n17 ok in "), "\(first.stderr)")
        let out = directory.appendingPathComponent("out")
        for size in ["160", "480"] {
            #expect(
                try FileManager.default.contentsOfDirectory(
                    atPath: out.appendingPathComponent("thumbnails/\(size)").path
                ).sorted()
                    == ["mountains.jpg", "seedling.jpg", "sunset.jpg"])
        }
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("folder/sunset.jpg"),
            to: directory.appendingPathComponent("folder/dusk.jpg"))
        let second = try await TaskGraphProcess.run(arguments + ["--explain"], in: directory, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("\n7 ok, 15 cached in "), "\(second.stderr)")
        // A thumbnail of an unchanged photo that was quicker to compute than to store
        // (`StoragePolicy`, decided by its measured time) is recomputed for the contact sheet.
        let ran = second.stdout.split(separator: "\n").filter {
            !$0.hasSuffix(": cached") && !$0.contains(": run: recomputed: not stored (")
        }
        #expect(
            ran == [
                "load[dusk]: run: new", "thumb[dusk,160]: run: new", "thumb[dusk,480]: run: new",
                "save-thumb[dusk,160]: run: new", "save-thumb[dusk,480]: run: new",
                "contact-sheet: run: input changed: thumb[dusk,160] <- thumb[dusk,160] produced a different result",
                "save-contact-sheet: run: input changed: contact-sheet <- thumb[dusk,160] produced a different result",
            ], "\(second.stdout)")
    }

    @Test func explainNamesTheInstancesOfAPhotoRemovedFromTheFolder() async throws {
        let (directory, environment) = try folderCopy()
        let first = try await TaskGraphProcess.run(arguments, in: directory, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("folder/sunset.jpg"))
        let second = try await TaskGraphProcess.run(arguments + ["--explain"], in: directory, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let removed = second.stdout.split(separator: "\n").filter { $0.contains(": removed: ") }
        #expect(
            removed == [
                "load[sunset]: removed: the last run had it, the pipeline no longer does",
                "save-thumb[sunset,160]: removed: the last run had it, the pipeline no longer does",
                "save-thumb[sunset,480]: removed: the last run had it, the pipeline no longer does",
                "thumb[sunset,160]: removed: the last run had it, the pipeline no longer does",
                "thumb[sunset,480]: removed: the last run had it, the pipeline no longer does",
            ], "\(second.stdout)")
        // Said once: the next run's graph is the one it compares with.
        let third = try await TaskGraphProcess.run(arguments + ["--explain"], in: directory, environment: environment)
        #expect(!third.stdout.contains(": removed: "), "\(third.stdout)")
    }
}
