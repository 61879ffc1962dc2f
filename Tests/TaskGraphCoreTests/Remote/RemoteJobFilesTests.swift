import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// A job for a node that does not have the driver's files (docs/cluster.md, "Files"): the driver
/// stores what its operations' keys rest on; the worker runs it in a directory of its own and
/// names what it leaves by the driver's paths.
@Suite struct RemoteJobFilesTests {
    private static let pipeline = """
        version: 1
        name: carried
        operations:
          greeting: {op: load, path: data/in.txt}
          keep: {op: save, needs: greeting, path: copy.txt}
        """

    /// A checkout holding the pipeline's file, and the setups of `greeting` and `keep`.
    private func checkout() throws -> (directory: String, greeting: OperationSetup, keep: OperationSetup) {
        let directory = NSTemporaryDirectory() + "taskgraph-job-files-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        try Data("twelve bytes".utf8).write(to: URL(fileURLWithPath: directory + "/data/in.txt"))
        let graph = try Pipeline.load(
            text: Self.pipeline, file: directory + "/carried.yaml",
            options: PipelineOptions(outputDirectory: directory + "/out", registry: .core)
        ).graph
        let setups = ["greeting", "keep"].map { id in graph.nodes.first { $0.id == id }!.setup! }
        return (directory, setups[0], setups[1])
    }

    private static let contents = ContentDigest.sha256(of: Data("twelve bytes".utf8))

    @Test func theDriverStoresEachFileTheKeysRestOnOnce() async throws {
        let (directory, greeting, keep) = try checkout()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = MemoryResultStore()
        let job = try await RemoteJob(setup: greeting, attempt: 1, inputs: [], key: nil, components: nil, chain: [keep])
            .carryingFiles(registry: .core, store: store)
        #expect(
            job.files == [RemoteJob.File(path: directory + "/data/in.txt", digest: Self.contents, executable: false)])
        let copy = directory + "/stored.txt"
        #expect(try await store.materialize(Self.contents, at: copy))
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data("twelve bytes".utf8))
    }

    @Test func aFileThatChangedSinceItsKeyWasComputedIsNotCarried() async throws {
        let (directory, greeting, _) = try checkout()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var components = KeyComponents()
        components.add("path", directory + "/data/in.txt")
        components.add("file.data/in.txt", Self.contents.description)
        let job = RemoteJob(setup: greeting, attempt: 1, inputs: [], key: components.key, components: components)
        #expect(try await job.carryingFiles(registry: .core, store: MemoryResultStore()).files?.count == 1)

        try Data("thirteen bytes".utf8).write(to: URL(fileURLWithPath: directory + "/data/in.txt"))
        await #expect(throws: RemoteJobFilesError.changed(operation: "greeting", component: "file.data/in.txt")) {
            try await job.carryingFiles(registry: .core, store: MemoryResultStore())
        }
    }

    @Test func aWorkerRunsTheJobOnTheFilesItCarriesAndNamesWhatItLeavesByTheDriversPaths() async throws {
        let (directory, greeting, keep) = try checkout()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = MemoryResultStore()
        let job = try await RemoteJob(setup: greeting, attempt: 1, inputs: [], key: nil, components: nil, chain: [keep])
            .carryingFiles(registry: .core, store: store)
        // What the node reads is the carried copy, not the driver's file.
        try Data("changed on the driver".utf8).write(to: URL(fileURLWithPath: directory + "/data/in.txt"))

        let completion = await RemoteWorker(registry: .core, store: store).run(job, resources: RunResources())
        guard case .fused(let steps) = completion, steps.count == 2, case .succeeded(let loaded) = steps[0],
            case .succeeded(let kept) = steps[1]
        else {
            Issue.record("\(completion)")
            return
        }
        let driverPath = directory + "/data/in.txt"
        #expect(try await loaded.result == LoadedFile(path: driverPath, data: Data("twelve bytes".utf8)).digest)
        #expect(kept.outputFiles == [ActionRecord.OutputFile(path: directory + "/out/copy.txt", digest: Self.contents)])
        #expect(
            try await store.loadResult(kept.result) as? WrittenFile
                == WrittenFile(path: directory + "/out/copy.txt", byteCount: 12))
        #expect(kept.summary == "\(directory)/out/copy.txt (12 B)")
        // It wrote in its own directory, since removed: the driver restores the file.
        #expect(!FileManager.default.fileExists(atPath: directory + "/out/copy.txt"))
    }

    @Test func aFailureNamesTheDriversPaths() async throws {
        let (directory, greeting, _) = try checkout()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var job = RemoteJob(setup: greeting, attempt: 1, inputs: [], key: nil, components: nil)
        job.files = []
        let completion = await RemoteWorker(registry: .core, store: MemoryResultStore()).run(
            job, resources: RunResources())
        // Read in its own directory, where nothing was carried; named by the driver's path.
        #expect(completion == .failed("cannot read '\(directory)/data/in.txt': No such file or directory"))
    }
}
