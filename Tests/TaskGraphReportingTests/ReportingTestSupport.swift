import Foundation
import OperationTestSupport
import TaskGraphReporting

@testable import TaskGraphCore

/// One outcome of each kind, with details, in `NodeOutcome.Kind` order.
let everyOutcome: [NodeOutcome] = NodeOutcome.Kind.allCases.map { kind in
    switch kind {
    case .succeeded: .succeeded
    case .cached: .cached
    case .failed: .failed("'sh' exited with status 3: \"disk\" on fire")
    case .timedOut: .timedOut(.milliseconds(1500))
    case .cancelled: .cancelled
    case .skipped: .skipped(because: "fetch[lake]")
    case .bypassed: .bypassed("when: failure, and nothing it needs failed")
    case .notStarted: .notStarted
    }
}

/// A graph of one node per outcome kind, `op-<event name>`, with no dependencies.
func graphOfEveryKind() throws -> ExecutionGraph {
    var graph = ExecutionGraph()
    for kind in NodeOutcome.Kind.allCases {
        try graph.add("op-\(kind.eventName)", action: ClosureAction { _ in EmptyResult() })
    }
    return graph
}

/// The event that node `node` ended with `outcome`, at the start of the run.
func finished(_ node: Int, _ outcome: NodeOutcome) -> EngineEvent {
    EngineEvent(elapsed: .zero, kind: .nodeFinished(node: node, outcome: outcome))
}

/// A writer to a new file in a scratch directory, and the file's path.
func scratchOutput(named name: String) throws -> (output: TextOutput, path: String) {
    let path = try makeScratchDirectory().appendingPathComponent(name).path
    return (try TextOutput(creatingFile: path), path)
}

/// The text of the file at `path`.
func contents(of path: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
}
