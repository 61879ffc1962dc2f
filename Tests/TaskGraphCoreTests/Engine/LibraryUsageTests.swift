import Foundation
import TaskGraphCore
import Testing

/// The README's "Using the engine from Swift" example, verbatim, through the public API only.
@Suite struct LibraryUsageTests {
    @Test func readmeExampleRuns() async throws {
        var graph = ExecutionGraph()
        let fetch = try graph.add(
            "fetch",
            action: ClosureAction { _ in
                BytesResult(Data("hello".utf8))
            })
        try graph.add(
            "shout",
            action: ClosureAction { context in
                let text = String(decoding: try await context.input((any BytesProvider).self).data, as: UTF8.self)
                return BytesResult(Data(text.uppercased().utf8))
            }, needs: [fetch], settings: NodeSettings(retries: 2, timeout: .seconds(5)))

        let report = await Engine(options: EngineOptions(jobs: 4)).run(graph)
        #expect(report.finalResults["shout"]!.summary == "5 B")
        let shout = try #require(report.finalResults["shout"] as? BytesResult)
        #expect(shout.data == Data("HELLO".utf8))
    }

    /// A program's own action type, conforming to the same protocol as the built-ins.
    struct Doubler: TaskAction {
        func run(in context: TaskContext) async throws -> any OperationResult {
            let inputs = context.inputs((any BytesProvider).self)
            var total = Data()
            for input in inputs { total += try await input.value.data }
            return BytesResult(total + total)
        }
    }

    @Test func customActionTypesFanIn() async throws {
        var graph = ExecutionGraph()
        let a = try graph.add("a", action: ClosureAction { _ in BytesResult(Data("a".utf8)) })
        let b = try graph.add("b", action: ClosureAction { _ in BytesResult(Data("b".utf8)) })
        try graph.add("double", action: Doubler(), needs: [a, b])
        let report = await Engine().run(graph)
        let result = try #require(report.finalResults["double"] as? BytesResult)
        #expect(result.data == Data("abab".utf8))
        #expect(throws: GraphError.duplicateID("a")) { try graph.add("a", action: Doubler()) }
    }
}
