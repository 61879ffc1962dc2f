import Foundation
import TaskGraphCore
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphStore

/// The photos demo as a Swift program: builds the chain with the built-in operations' Swift
/// types, runs it incrementally over a store (the second run reuses every result), then starts a third run
/// with the store cleared and cancels it, as a table view cancels the work of cells that scroll
/// away.
///
///     swift run PhotoFlow [SOURCE_DIRECTORY [WORK_DIRECTORY]]
@main
struct PhotoFlow {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        let source = arguments.first ?? "../pipelines/photos"
        let work = arguments.dropFirst().first ?? NSTemporaryDirectory() + "taskgraph-photoflow-\(getpid())"
        let chain = PhotoChain(
            sourceDirectory: URL(fileURLWithPath: source).standardizedFileURL.path, outputDirectory: work + "/out",
            photos: ["mountains", "sunset", "seedling"])
        let results = ResultRegistry(
            CoreOperations.resultKinds + ImagingOperations.resultKinds + NetworkOperations.resultKinds
                + [ResultKind(Brightness.self)])
        let runs = IncrementalRuns(storeDirectory: work + "/store", registry: results, name: "photoflow")
        let engine = Engine(options: EngineOptions(jobs: 2))

        let first = await runs.run(try chain.graph(), on: engine, results: ArrivalPrinter()).report
        print("first run: \(describe(first))")
        let again = await runs.run(try chain.graph(), on: engine)
        let second = again.report
        print("second run: \(describe(second))" + (again.nothingChanged ? ": nothing changed since the last run" : ""))

        let cancelled = Task { await engine.run(try chain.graph()) }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()
        print("cancelled run: \(describe(try await cancelled.value))")
        guard first.succeeded, second.counts[.cached] == first.nodes.count else { exit(1) }
    }

    /// How many nodes ended each way, e.g. `18 succeeded`.
    static func describe(_ report: RunReport) -> String {
        let counts = report.counts
        let text = NodeOutcome.Kind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.rawValue)" } }
            .joined(separator: ", ")
        return report.wasCancelled ? text + " (cancelled)" : text
    }
}
