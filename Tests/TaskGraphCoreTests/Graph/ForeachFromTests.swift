import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// `foreach: {from: index}`: instances made from an operation's result once it has run.
@Suite struct ForeachFromTests {
    private func load(_ yaml: String) throws(PipelineError) -> Pipeline {
        try Pipeline.load(
            text: yaml, file: "test.yaml", options: PipelineOptions(environment: [:], outputDirectory: "/tmp/out"))
    }

    private func diagnostics(_ yaml: String) -> [String] {
        do {
            return try load(yaml).warnings.map(\.description)
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    private func items(_ text: String, idField: String? = nil) throws(FanOutError) -> [ForeachItem] {
        try ResultItems(source: "index", idField: idField).items(of: Data(text.utf8))
    }

    @Test func itemsAreStringsObjectsOrLines() throws {
        #expect(try items(#"["a", "b", 3]"#).map(\.id) == ["a", "b", "3"])
        let objects = try items(#"[{"name": "m", "url": "u1", "size": 2}, {"id": "s", "url": "u2", "ok": true}]"#)
        #expect(objects.map(\.id) == ["m", "s"])
        #expect(objects.map(\.value) == ["m", "s"])
        #expect(objects[0].fields == ["name": "m", "url": "u1", "size": "2"])
        #expect(objects[1].fields["ok"] == "true")
        #expect(try items(#"[{"name": "m", "key": "k1"}]"#, idField: "key").map(\.id) == ["k1"])
        #expect(try items("mountains\n\n  sunset  \nseedling\n").map(\.id) == ["mountains", "sunset", "seedling"])
    }

    @Test func badItemsAreErrorsNamingTheItemAndItsPosition() {
        let cases: [(text: String, idField: String?, message: String)] = [
            (#"["a", "b", "a"]"#, nil, "item 3 of 'index' has the id 'a', as item 1 has"),
            (
                #"["a", "x]y"]"#, nil,
                "item 2 of 'index' has the id 'x]y', which must be non-empty and contain no '[', ']' or line break"
            ),
            (#"["a", [1]]"#, nil, "item 2 of 'index' is neither a string, a number nor an object"),
            (
                #"[{"url": "u"}]"#, nil,
                "item 1 of 'index' has no 'name' or 'id' field for its id; name one with 'id_field'"
            ),
            (#"[{"name": "a"}]"#, "key", "item 1 of 'index' has no field 'key' (its id, by 'id_field')"),
            (#"["a", "#, nil, "the result of 'index' is not a valid JSON array: "),
        ]
        for (text, idField, message) in cases {
            #expect {
                _ = try items(text, idField: idField)
            } throws: { error in
                "\(error)".hasPrefix(message)
            }
        }
    }

    @Test func theTemplateIsCheckedBeforeTheSourceRuns() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  index: {op: exec, command: [echo, a]}
                  get: {foreach: {from: indx}, op: exec, command: [echo, "${item.url}"]}
                """) == [
                    "test.yaml:4:25: error: operation 'get': 'foreach' takes items from 'indx', which does not exist; "
                        + "did you mean 'index'?"
                ])
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  index: {op: exec, command: [echo, a], needs: all}
                  get: {foreach: {from: index}, op: exec, command: [echo, "${item}"]}
                  all: {op: group, needs: get}
                """) == [
                    "test.yaml:4:25: error: operation 'get': 'foreach' takes items from 'index', which needs 'get' "
                        + "(directly or not): a cycle"
                ])
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  index: {op: exec, command: [echo, a]}
                  get: {foreach: {from: index, glob: "*.jpg"}, op: exec, command: [echo, "${item}"]}
                """) == ["test.yaml:4:38: error: operation 'get': 'foreach' takes 'from' alone, not with 'glob'"])
    }

    @Test func theSourceGetsAnExpansionThatFanInsNeed() throws {
        let graph = try load(
            """
            version: 1
            operations:
              index: {op: exec, command: [echo, a]}
              get: {foreach: {from: index}, op: exec, command: [echo, "${item.url}"]}
              all: {op: group, needs: get}
            """
        ).graph
        #expect(graph.nodes.map(\.id) == ["index", "all", "index[*]"])
        #expect(graph.nodes.map(\.dependencies) == [[], [2], [0]])
        #expect(graph.addsNodesWhileRunning)
        #expect(try graph.indices(selecting: "get") == [2], "--only get runs the expansion that adds its instances")
        #expect(try graph.restricted(to: ["get[x]"]).nodes.map(\.id) == ["index", "index[*]"])
    }

    @Test func aRunAddsTheInstancesOfEveryItemAndFanInsWaitForThem() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("from-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pipeline = try Pipeline.load(
            text: """
                version: 1
                operations:
                  index: {op: exec, command: [printf, '[{"name": "a", "n": "1"}, {"name": "b", "n": "2"}]']}
                  echo: {foreach: {from: index}, op: exec, command: [sh, -c, "echo ${item.n} > ${item}.txt"], cwd:\
                 "\(directory.path)"}
                  copy: {foreach: {from: index}, op: exec, needs: echo, command: [cp, "${item}.txt", "${item}.copy"],\
                 cwd: "\(directory.path)"}
                  all: {op: exec, needs: copy, command: [sh, -c, "cat a.copy b.copy > all.txt"], cwd:\
                 "\(directory.path)"}
                """, file: "test.yaml",
            options: PipelineOptions(environment: ["PATH": "/usr/bin:/bin"], outputDirectory: directory.path))
        let report = await Engine().run(pipeline.graph)
        #expect(report.succeeded, "\(report.nodes.map { "\($0.id) \($0.outcome)" })")
        #expect(report.nodes.map(\.id) == ["index", "all", "index[*]", "echo[a]", "echo[b]", "copy[a]", "copy[b]"])
        #expect(try String(contentsOf: directory.appendingPathComponent("b.copy"), encoding: .utf8) == "2\n")
        // The fan-in ran after every copy had finished: it read both copies. Not compared by
        // time stamps: each worker reads the clock before taking the run's lock, so of two copies
        // finishing at once, the one that releases the fan-in (whose start is its clock reading)
        // may have read the clock just before the other's end.
        #expect(try String(contentsOf: directory.appendingPathComponent("all.txt"), encoding: .utf8) == "1\n2\n")
    }

    @Test func anItemMissingAFieldFailsTheExpansion() async throws {
        let pipeline = try load(
            """
            version: 1
            operations:
              index: {op: exec, command: [printf, '[{"name": "a", "url": "u"}, {"name": "b"}]']}
              get: {foreach: {from: index}, op: exec, command: [echo, "${item.url}"]}
              all: {op: group, needs: get}
            """)
        let report = await Engine().run(pipeline.graph)
        #expect(report.nodes.map(\.id) == ["index", "all", "index[*]"])
        #expect(
            report.nodes.map(\.outcome) == [
                .succeeded, .skipped(because: "index[*]"),
                .failed("item 2 of 'index' ('b') has no field 'url', which operation 'get' uses as ${item.url}"),
            ])
    }

    @Test func theExpansionHoldsWhatTheTemplateNeedsUntilItHasAddedTheInstances() async throws {
        // 'other', the only consumer of 'base' the run starts with, has taken its result before
        // 'index' runs: the expansion, which needs 'base' for the instances, still holds it.
        let pipeline = try load(
            """
            version: 1
            operations:
              base: {op: exec, command: [echo, hi]}
              other: {op: group, needs: base}
              index: {op: exec, command: [printf, 'a\\nb\\n'], needs: other}
              get: {foreach: {from: index}, op: group, needs: base}
              all: {op: group, needs: get}
            """)
        #expect(pipeline.graph.nodes.map(\.id) == ["base", "other", "index", "all", "index[*]"])
        #expect(pipeline.graph.nodes.map(\.dependencies) == [[], [0], [1], [4], [2, 0]])
        let report = await Engine().run(pipeline.graph)
        #expect(report.nodes.map(\.id) == ["base", "other", "index", "all", "index[*]", "get[a]", "get[b]"])
        #expect(report.succeeded, "\(report.nodes.map { "\($0.id) \($0.outcome)" })")
    }
}
