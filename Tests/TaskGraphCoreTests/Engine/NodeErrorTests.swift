import Foundation
import Testing

@testable import TaskGraphCore

/// A failed node keeps the error its last attempt threw, so a Swift caller can switch on it;
/// its outcome keeps the error's description, as the event and report formats show it.
@Suite struct NodeErrorTests {
    @Test func aFailedNodeKeepsItsTypedErrorBesideItsMessage() async throws {
        var graph = ExecutionGraph()
        let read = try graph.add(
            "read",
            action: ClosureAction { _ in
                throw OperationError.readFailed(path: "in.txt", reason: "No such file or directory")
            })
        try graph.add("after", action: ClosureAction { _ in EmptyResult() }, needs: [read])
        try graph.add("fine", action: ClosureAction { _ in EmptyResult() })
        let report = await Engine().run(graph)
        #expect(
            report.nodes.map(\.outcome) == [
                .failed("cannot read 'in.txt': No such file or directory"), .skipped(because: "read"), .succeeded,
            ])
        guard case .readFailed(let path, let reason)? = report.nodes[0].error as? OperationError else {
            Issue.record("not an OperationError: \(String(describing: report.nodes[0].error))")
            return
        }
        #expect(path == "in.txt")
        #expect(reason == "No such file or directory")
        #expect(report.nodes[1].error == nil)
        #expect(report.nodes[2].error == nil)
    }

    @Test func theErrorIsTheLastAttempts() async throws {
        let attempts = Counter()
        var graph = ExecutionGraph()
        try graph.add(
            "flaky",
            action: ClosureAction { _ in
                throw TestFailure(description: "attempt \(attempts.increment())")
            }, settings: NodeSettings(retries: 2))
        let report = await Engine(options: EngineOptions(retryBaseDelay: .milliseconds(1))).run(graph)
        #expect(report.nodes[0].outcome == .failed("attempt 3"))
        #expect((report.nodes[0].error as? TestFailure)?.description == "attempt 3")
    }

    @Test func aTimedOutNodeKeepsEngineErrorTimedOut() async throws {
        var graph = ExecutionGraph()
        try graph.add("stuck", action: sleeping(.seconds(900)), settings: NodeSettings(timeout: .milliseconds(100)))
        let report = await Engine().run(graph)
        #expect(report.nodes[0].outcome == .timedOut(.milliseconds(100)))
        #expect(report.nodes[0].error as? EngineError == .timedOut(.milliseconds(100)))
    }

    @Test func aProgramThatCannotStartKeepsChildProcessError() async throws {
        var graph = ExecutionGraph()
        try graph.add(
            "run",
            action: ClosureAction { context in
                _ = try await context.resources.childProcesses.run(
                    arguments: ["/nonexistent/program"], environment: [:], workingDirectory: nil)
                return EmptyResult()
            })
        let report = await Engine().run(graph)
        #expect(report.nodes[0].outcome == .failed("program '/nonexistent/program' does not exist"))
        #expect(report.nodes[0].error as? ChildProcessError == .programNotFound("/nonexistent/program"))
    }
}
