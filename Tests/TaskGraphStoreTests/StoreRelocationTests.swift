import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Records made for another output directory and reused from the on-disk store: a result the
/// record holds inline names this run's files and stays inline; a result left out of the store
/// is reused as it was recorded (there is nothing to read).
@Suite struct StoreRelocationTests {
    /// A record of `result` under `sampleKey(text)`, whose one output file is `path`.
    private func record(
        of result: (digest: ContentDigest, inline: Data?), kind: String, summary: String, writing path: String,
        file: ContentDigest, text: String
    ) -> ActionRecord {
        ActionRecord(
            result: result.digest, resultKind: kind, summary: summary,
            outputFiles: [ActionRecord.OutputFile(path: path, digest: file)], seconds: 0.5, recordedAt: 0,
            id: "save[lake]", components: sampleComponents(text: text), inlineResult: result.inline)
    }

    @Test func anInlineSavedFileNamesWhereThisRunWritesItAndStaysInline() async throws {
        let store = try temporaryStore()
        let directory = try emptyDirectory("relocation")
        try writeFile("twelve bytes", to: directory + "/copy.txt")
        let file = try await store.storeFile(at: directory + "/copy.txt")
        let written = WrittenFile(path: "/a/out/copy.txt", byteCount: 12)
        let stored = try await store.storeResult(written, inliningUpTo: ActionRecord.inlineLimit)
        #expect(stored.inline != nil)
        let original = record(
            of: stored, kind: WrittenFile.kind, summary: written.summary, writing: written.path, file: file,
            text: "inline")
        try await store.write(original, for: sampleKey("inline"))
        store.noteOutputFiles(["/b/out/copy.txt"], forKey: sampleKey("inline"))

        let reused = try #require(await store.reusableRecord(for: sampleKey("inline"))?.record)
        #expect(reused.outputFiles.map(\.path) == ["/b/out/copy.txt"])
        #expect(reused.summary == "/b/out/copy.txt (12 B)")
        #expect(reused.inlineResult != nil)
        #expect(!FileManager.default.fileExists(atPath: store.blobPath(reused.result)))
        let result = try await store.loadResult(StoredResult(reused))
        #expect(result as? WrittenFile == WrittenFile(path: "/b/out/copy.txt", byteCount: 12))
    }

    @Test func aResultLeftOutOfTheStoreIsReusedAsItWasRecorded() async throws {
        let store = try temporaryStore()
        let directory = try emptyDirectory("relocation")
        try writeFile("pixels", to: directory + "/tilt.raw")
        let file = try await store.storeFile(at: directory + "/tilt.raw")
        let unstored = UnstoredResult(
            identity: UnstoredResult.identity(ofResultKeyedBy: sampleKey("left out")), resultKind: "image.decoded",
            summary: "4000×3000", byteCount: 36_000_000, recomputeSeconds: 0.12)
        let original = record(
            of: (try await store.storeResult(unstored), nil), kind: UnstoredResult.kind, summary: unstored.summary,
            writing: "/a/out/tilt.raw", file: file, text: "left out")
        try await store.write(original, for: sampleKey("left out"))
        store.noteOutputFiles(["/b/out/tilt.raw"], forKey: sampleKey("left out"))

        let reused = try #require(await store.reusableRecord(for: sampleKey("left out"))?.record)
        #expect(reused.outputFiles.map(\.path) == ["/b/out/tilt.raw"])
        #expect(reused.result == original.result)
        #expect(reused.resultKind == UnstoredResult.kind)
        #expect(try await store.loadResult(StoredResult(reused)) as? UnstoredResult == unstored)
    }
}
