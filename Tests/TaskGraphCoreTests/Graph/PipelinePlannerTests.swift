import OperationTestSupport
import Testing

@testable import TaskGraphCore

@Suite struct PipelinePlannerTests {
    @Test func foreachPairsItemByItemAndFansIn() throws {
        let graph = try plannedGraph(
            """
            version: 1
            vars: {photos: [lake, harbor]}
            operations:
              fetch: {foreach: "${photos}", op: exec, command: [echo, "${item}"]}
              keep: {foreach: "${photos}", op: save, needs: fetch, path: "${item}.txt"}
              all: {op: group, needs: [keep]}
            """)
        #expect(graph.nodes.map(\.id) == ["fetch[lake]", "fetch[harbor]", "keep[lake]", "keep[harbor]", "all"])
        #expect(graph.nodes.map(\.dependencies) == [[], [], [0], [1], [2, 3]])
        #expect(graph.nodes[3].parameters.string("path") == "harbor.txt")
    }

    @Test func missingNeedsSelfNeedsAndDuplicates() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  tilt-shift: {op: group}
                  sepia: {op: group, needs: [tilt, sepia, tilt-shift, tilt-shift]}
                """) == [
                    "test.yaml:4:30: error: operation 'sepia' needs 'tilt', which does not exist; did you mean "
                        + "'tilt-shift'?",
                    "test.yaml:4:36: error: operation 'sepia' needs itself",
                    "test.yaml:4:55: error: operation 'sepia' needs 'tilt-shift' more than once",
                ])
    }

    @Test func foreachPairingThatCannotLineUp() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a: {foreach: [x, y], op: group}
                  b: {foreach: [x, z], op: group, needs: a}
                """) == [
                    "test.yaml:4:42: error: cannot pair 'b' with 'a' item by item: 'a' has no item 'z' (its "
                        + "items: x, y)"
                ])
    }

    @Test func cyclesAreReportedWithEveryEdge() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a: {op: group, needs: c}
                  b: {op: group, needs: a}
                  c: {op: group, needs: b}
                  d: {op: group, needs: [e]}
                  e: {op: group, needs: [d]}
                """) == [
                    """
                    test.yaml:3:25: error: dependency cycle: a -> c -> b -> a
                    test.yaml:3:25: note: 'a' needs 'c' here
                    test.yaml:5:25: note: 'c' needs 'b' here
                    test.yaml:4:25: note: 'b' needs 'a' here
                    """,
                    """
                    test.yaml:6:26: error: dependency cycle: d -> e -> d
                    test.yaml:6:26: note: 'd' needs 'e' here
                    test.yaml:7:26: note: 'e' needs 'd' here
                    """,
                ])
    }

    @Test func cyclesThroughForeachAreReportedOnce() {
        let result = diagnostics(
            """
            version: 1
            operations:
              a: {foreach: [x, y, z], op: group, needs: b}
              b: {foreach: [x, y, z], op: group, needs: a}
            """)
        #expect(result.count == 1)
        #expect(result.first?.hasPrefix("test.yaml:3:45: error: dependency cycle: a[x] -> b[x] -> a[x]") == true)
    }

    @Test func dataFlowIsCheckedStatically() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  all: {op: group}
                  out: {op: save, needs: [all], path: x}
                  lonely: {op: save, path: y}
                """) == [
                    "test.yaml:4:26: error: operation 'out': 'save' consumes bytes, but no dependency provides it "
                        + "('all' (group) provides nothing)",
                    "test.yaml:5:16: error: operation 'lonely': 'save' consumes bytes, but the operation has "
                        + "no 'needs'",
                ])
    }

    @Test func ambiguousInputMustBeChosen() throws {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a: {op: load, path: a.txt}
                  b: {op: load, path: b.txt}
                  out: {op: save, needs: [a, b], path: x}
                """) == [
                    "test.yaml:5:26: error: operation 'out': 'save' takes one input, but 2 dependency results provide "
                        + "bytes: 'a', 'b'; choose one with 'input: <id>'"
                ])
        let graph = try plannedGraph(
            """
            version: 1
            operations:
              a: {op: load, path: a.txt}
              b: {op: load, path: b.txt}
              out: {op: save, needs: [a, b], input: b, path: x}
            """)
        #expect(graph.nodes[2].preferredInputID == "b")
    }

    @Test func undeclaredPool() {
        #expect(
            diagnostics(
                """
                version: 1
                pools: {net: 4}
                operations:
                  a: {op: group, pool: nett}
                """) == [
                    "test.yaml:4:24: error: operation 'a': pool 'nett' is not declared under 'pools'; did you "
                        + "mean 'net'?"
                ])
    }

    @Test func moreThan65535PoolsAreRefused() {
        let pools = (0...65_535).map { "  p\($0): 1\n" }.joined()
        #expect(
            diagnostics("version: 1\npools:\n\(pools)operations:\n  a: {op: group}\n") == [
                "test.yaml:3:3: error: 'pools' declares 65536 pools; at most 65535 can be"
            ])
    }

    @Test func defaultsApplyUnlessOverridden() throws {
        let graph = try plannedGraph(
            """
            version: 1
            defaults: {retries: 2, timeout: 30s}
            operations:
              a: {op: group}
              b: {op: group, retries: 0, timeout: 1m}
            """)
        #expect(graph.nodes[0].settings == NodeSettings(retries: 2, timeout: .seconds(30)))
        #expect(graph.nodes[1].settings == NodeSettings(retries: 0, timeout: .seconds(60)))
    }

    /// A planned graph builds no id index up front; looking nodes up, restricting and adding
    /// still work.
    @Test func plannedGraphsFindNodesByID() throws {
        var graph = try plannedGraph(
            """
            version: 1
            operations:
              a: {op: group}
              b: {op: group, needs: a}
              c: {op: group}
            """)
        #expect(graph.index(of: "b") == 1)
        #expect(graph.index(of: "z") == nil)
        #expect(try graph.restricted(to: ["b"]).nodes.map(\.id) == ["a", "b"])
        #expect(throws: GraphError.unknownID("bb", suggestion: "b")) { try graph.restricted(to: ["bb"]) }
        #expect(throws: GraphError.duplicateID("c")) {
            try graph.add("c", action: ClosureAction { _ in EmptyResult() })
        }
        let added = try graph.add(
            "d", action: ClosureAction { _ in EmptyResult() }, needs: [ExecutionGraph.NodeHandle(index: 2)])
        #expect(graph.index(of: "d") == added.index)
    }

    @Test func millionNodeChainPlansWithoutStackOverflow() async throws {
        let count = 1_000_000
        let (nodeCount, lastDependencies, diagnostics) = try await offThePool { Self.planChain(count) }
        #expect(diagnostics.isEmpty)
        #expect(nodeCount == count)
        #expect(lastDependencies == [count - 2])
    }

    private static func planChain(_ count: Int) -> (Int?, [Int]?, [Diagnostic]) {
        var operations: [OperationSpec] = []
        operations.reserveCapacity(count)
        for index in 0..<count {
            let location = SourceLocation(file: "chain.yaml", line: index + 3, column: 3)
            let needs = index == 0 ? [] : [Located("n\(index - 1)", at: location)]
            operations.append(
                OperationSpec(
                    id: Located("n\(index)", at: location), type: Located("group", at: location),
                    needs: needs, needsLocation: location, parameters: []))
        }
        let spec = PipelineSpec(
            file: "chain.yaml", name: "chain", output: nil, pools: [:],
            variables: Variables(values: [:], environment: [:]), operations: operations)
        let planner = PipelinePlanner(
            registry: .core, pipelineDirectory: "/", outputDirectory: "/tmp/out", poolOverrides: [:])
        let (graph, diagnostics) = planner.plan(spec)
        return (graph?.nodes.count, graph?.nodes.last?.dependencies, diagnostics)
    }
}

/// An operation that needs input, fed only by `foreach` operations whose list is empty (after
/// `--var`), would fail when run; validate says so first.
@Suite struct EmptyForeachInputTests {
    private let yaml = """
        version: 1
        vars: {names: [ann, bob]}
        operations:
          keep: {op: exec, foreach: "${names}", command: [echo, "${item}"]}
          rep: {op: save, needs: [keep], path: r.txt}
        """

    @Test func anEmptyForeachFeedingAConsumerIsAnError() {
        #expect(
            diagnostics(yaml, variables: ["names": ""]) == [
                "test.yaml:4:29: warning: operation 'keep': 'foreach' has no items, so the operation never runs",
                "test.yaml:5:26: error: operation 'rep': 'save' consumes bytes, but every dependency providing it has "
                    + "a 'foreach' without items ('keep'), so it would receive nothing",
            ])
    }
}
