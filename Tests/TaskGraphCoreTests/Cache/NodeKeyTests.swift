import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// Every node's key identifies its work: a node made from a setup in Swift is keyed as the same
/// operation in a pipeline file, every keyed parameter enters the key, and an action that does
/// not say what it does is never reused.
@Suite struct NodeKeyTests {
    @Test func everyKeyedParameterOfEveryCoreTypeChangesTheKey() async throws {
        let directory = try makeScratchDirectory()
        for name in ["in.txt", "other.in", "another.in"] {
            try Data(name.utf8).write(to: directory.appendingPathComponent(name))
        }
        let base: [String: [String: ParameterValue]] = [
            "exec": ["command": .list(["sh"])], "load": ["path": .string("in.txt")],
            "save": ["path": .string("out.txt")],
        ]
        #expect(try await parametersLeavingTheKey(registry: .core, base: base, directory: directory.path) == [])
    }

    @Test func aSetupBuiltInSwiftIsKeyedAsTheSameOperationInAPipelineFile() async throws {
        let planned = try plannedGraph(
            """
            version: 1
            name: keys
            operations:
              make: {op: exec, command: [sh, -c, 'echo made > made.txt'], outputs: [made.txt], env: {MODE: fast}}
              keep: {op: save, needs: make, path: kept.txt}
            """)
        var built = ExecutionGraph()
        var handles: [ExecutionGraph.NodeHandle] = []
        for node in planned.nodes {
            let setup = try #require(node.setup)
            handles.append(
                try built.add(
                    node.id, action: OperationRegistry.core.makeAction(for: setup),
                    needs: node.dependencies.map { handles[$0] }))
        }
        let input = ContentDigest.sha256(of: Data("make's result".utf8))
        for (index, node) in planned.nodes.enumerated() {
            let inputs = node.dependencies.map { (id: planned.nodes[$0].id, digest: input) }
            let fromFile = try await KeyComponents.of(
                node, action: try #require(node.action as? any CacheableAction), inputs: inputs,
                files: HashingFileDigests())
            let inSwift = try await KeyComponents.of(
                built.nodes[index], action: try #require(built.nodes[index].action as? any CacheableAction),
                inputs: inputs,
                files: HashingFileDigests())
            #expect(built.nodes[index].type == node.type)
            #expect(inSwift.lines == fromFile.lines, "\(node.id)")
        }
    }

    @Test func aSetupNamingAnUnknownParameterIsRefused() throws {
        let setup = OperationSetup(
            type: "load", id: "in", parameters: Parameters(["paht": .string("x")]), pipelineDirectory: "/tmp",
            outputDirectory: "/tmp")
        #expect(throws: OperationError.unknownParameter(type: "load", name: "paht", suggestion: "path")) {
            try OperationRegistry.core.makeAction(for: setup)
        }
    }

    @Test func libraryNodesAreReusedOnlyForTheSameWork() async throws {
        let store = MemoryResultStore()
        func graph(_ factors: [String: Int]) throws -> ExecutionGraph {
            var graph = ExecutionGraph()
            let source = try graph.add("source", action: Constant(value: 3))
            for (id, factor) in factors.sorted(by: { $0.key < $1.key }) {
                try graph.add(id, action: Multiply(factor: factor), needs: [source])
            }
            // Another type with the same parameters: never the other's result.
            try graph.add("added", action: Add(factor: 2), needs: [source])
            return graph
        }
        let first = await Engine().run(try graph(["double": 2, "triple": 3]), cache: RunCache(store: store))
        #expect(first.nodes.map(\.outcome.kind) == [.succeeded, .succeeded, .succeeded, .succeeded])
        #expect(try await values(first, in: store) == ["added": 5, "double": 6, "triple": 9])

        let second = await Engine().run(try graph(["double": 2, "triple": 4]), cache: RunCache(store: store))
        #expect(second.nodes.map(\.outcome.kind) == [.cached, .cached, .succeeded, .cached])
        #expect(try await values(second, in: store) == ["added": 5, "double": 6, "triple": 12])
    }

    @Test func aBuiltInActionWithoutItsSetupIsNeverReused() async throws {
        let store = MemoryResultStore()
        let directory = try makeScratchDirectory()
        try Data("x".utf8).write(to: directory.appendingPathComponent("in.txt"))
        for _ in 0..<2 {
            var graph = ExecutionGraph()
            let made = try OperationRegistry.core.makeAction(
                for: OperationSetup(
                    type: "load", id: "in", parameters: Parameters(["path": .string("in.txt")]),
                    pipelineDirectory: directory.path, outputDirectory: directory.path))
            try graph.add("in", action: made.action)
            let cache = RunCache(store: store)
            let report = await Engine().run(graph, cache: cache)
            #expect(report.nodes.map(\.outcome.kind) == [.succeeded])
            #expect(
                cache.decisions["in"]
                    == CacheDecision(.miss, .notCacheable, detail: "built-in action added without its setup"))
        }
        #expect(store.recordWrites == 0)
    }

    /// The numbers the sink nodes' results hold, read from `store` when reused.
    private func values(_ report: RunReport, in store: MemoryResultStore) async throws -> [String: Int] {
        var values: [String: Int] = [:]
        for (id, result) in report.finalResults {
            var value = result
            if let stored = result as? StoredResult { value = try await store.loadResult(stored.digest) }
            let bytes = try #require(value as? BytesResult, "\(id)")
            values[id] = Int(String(decoding: bytes.data, as: UTF8.self))
        }
        return values
    }
}

/// A number, as decimal bytes.
private struct Constant: CacheableAction {
    let value: Int
    var cacheVersion: Int { 1 }
    func addParameters(to key: inout KeyComponents) { key.add("value", String(value)) }
    func run(in context: TaskContext) async throws -> any OperationResult { BytesResult(Data(String(value).utf8)) }
}

/// Its input's number times `factor`.
private struct Multiply: CacheableAction {
    let factor: Int
    var cacheVersion: Int { 1 }
    func addParameters(to key: inout KeyComponents) { key.add("factor", String(factor)) }
    func run(in context: TaskContext) async throws -> any OperationResult {
        let input = Int(String(decoding: try await context.input((any BytesProvider).self).data, as: UTF8.self)) ?? 0
        return BytesResult(Data(String(input * factor).utf8))
    }
}

/// Its input's number plus `factor`.
private struct Add: CacheableAction {
    let factor: Int
    var cacheVersion: Int { 1 }
    func addParameters(to key: inout KeyComponents) { key.add("factor", String(factor)) }
    func run(in context: TaskContext) async throws -> any OperationResult {
        let input = Int(String(decoding: try await context.input((any BytesProvider).self).data, as: UTF8.self)) ?? 0
        return BytesResult(Data(String(input + factor).utf8))
    }
}
