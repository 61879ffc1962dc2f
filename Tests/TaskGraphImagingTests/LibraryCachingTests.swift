import Foundation
import OperationTestSupport
import TaskGraphCore
import Testing

@testable import TaskGraphImaging

/// Image operations built in Swift from setups and run against a store: each node is keyed by
/// what it does, so a grayscale, a sepia and a blur of one photo are three results, and a
/// changed parameter runs only its node.
struct LibraryCachingTests {
    private let directory: URL

    init() throws {
        directory = try makeScratchDirectory()
        try fixture("gradient-baseline.jpg").write(to: directory.appendingPathComponent("photo.jpg"))
    }

    private func setup(_ type: String, _ parameters: [String: ParameterValue] = [:]) -> OperationSetup {
        OperationSetup(
            type: type, id: type, parameters: Parameters(parameters), pipelineDirectory: directory.path,
            outputDirectory: directory.path)
    }

    private func graph(blurRadius: Double) throws -> ExecutionGraph {
        let registry = OperationRegistry.imaging
        var graph = ExecutionGraph()
        let source = try graph.add(
            "source", action: registry.makeAction(for: setup("load", ["path": .string("photo.jpg")])))
        try graph.add("gray", action: registry.makeAction(for: setup("grayscale")), needs: [source])
        try graph.add("tone", action: registry.makeAction(for: setup("sepia")), needs: [source])
        try graph.add(
            "soft", action: registry.makeAction(for: setup("blur", ["blur_radius": .number(blurRadius)])),
            needs: [source])
        return graph
    }

    @Test func eachNodeIsKeyedByWhatItDoes() async throws {
        let store = MemoryResultStore()
        let first = await Engine().run(try graph(blurRadius: 2), cache: RunCache(store: store))
        #expect(first.nodes.map(\.outcome.kind) == [.succeeded, .succeeded, .succeeded, .succeeded])
        var digests: [String: ContentDigest] = [:]
        for (id, result) in first.finalResults { digests[id] = try await result.digest }
        #expect(Set(digests.values).count == 3)

        let second = await Engine().run(try graph(blurRadius: 3), cache: RunCache(store: store))
        #expect(second.nodes.map(\.outcome.kind) == [.cached, .cached, .cached, .succeeded])
        #expect(try await second.finalResults["gray"]?.digest == digests["gray"])
        #expect(try await second.finalResults["soft"]?.digest != digests["soft"])
        #expect(store.keys.count == 5)
    }

    @Test func everyKeyedParameterOfEveryImagingTypeChangesTheKey() async throws {
        for name in ["other.in", "another.in"] {
            try Data(name.utf8).write(to: directory.appendingPathComponent(name))
        }
        let base: [String: [String: ParameterValue]] = [
            "exec": ["command": .list(["sh"])], "load": ["path": .string("photo.jpg")],
            "save": ["path": .string("out.jpg")],
            "resize": ["max_side": .integer(100)], "crop": ["width": .integer(10), "height": .integer(10)],
        ]
        #expect(try await parametersLeavingTheKey(registry: .imaging, base: base, directory: directory.path) == [])
    }
}
