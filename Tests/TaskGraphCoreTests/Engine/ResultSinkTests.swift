import Foundation
import TaskGraphCore
import Testing

/// Results handed over as nodes end: every node's, in the order they end, not only the sinks'.
@Suite struct ResultSinkTests {
    /// Records the ids it receives, in order.
    final class Arrivals: ResultSink {
        private let ids = Locked<[String]>([])
        func receive(_ result: any OperationResult, of index: Int, id: String) { ids.withLock { $0.append(id) } }
        var order: [String] { ids.withLock { $0 } }
    }

    private func text(_ word: String) -> ClosureAction {
        ClosureAction { context in
            var data = Data(word.utf8)
            for input in context.inputs((any BytesProvider).self) { data = try await input.value.data + data }
            return BytesResult(data)
        }
    }

    @Test func everyNodesResultArrivesAsItEnds() async throws {
        var graph = ExecutionGraph()
        let load = try graph.add("load", action: text("a"))
        let tilt = try graph.add("tilt", action: text("b"), needs: [load])
        try graph.add("tone", action: text("c"), needs: [tilt])
        try graph.add("broken", action: ClosureAction { _ in throw CancellationError() }, needs: [load])
        let arrivals = Arrivals()
        let collected = CollectedResults()
        let report = await Engine(options: EngineOptions(jobs: 1)).run(graph, results: collected)
        _ = await Engine(options: EngineOptions(jobs: 1)).run(graph, results: arrivals)

        #expect(Set(report.finalResults.keys) == ["tone"])
        #expect(Set(collected.all.keys) == ["load", "tilt", "tone"])
        #expect((collected.all["tilt"] as? BytesResult)?.data == Data("ab".utf8))
        let order = arrivals.order
        #expect(Set(order) == ["load", "tilt", "tone"])
        #expect(order.firstIndex(of: "load")! < order.firstIndex(of: "tilt")!)
        #expect(order.firstIndex(of: "tilt")! < order.firstIndex(of: "tone")!)
    }
}
