import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// Every planned node keeps its `OperationSetup`: plain data that encodes deterministically and
/// makes the same action again.
@Suite struct OperationSetupTests {
    private static let pipeline = """
        version: 1
        vars: {photos: [lake, harbor]}
        operations:
          show:
            foreach: ${photos}
            op: exec
            command: [sh, -c, 'echo "$0 $GREETING $PASSED"; pwd', "${item}"]
            env: {GREETING: hello, OTHER: x}
            env_passthrough: [PASSED]
            cwd: work
          other: {op: group}
          keep:
            foreach: ${photos}
            op: save
            needs: [other, show]
            input: show
            path: kept/${item}.txt
        """

    private static let environment = ["PATH": "/usr/bin:/bin", "PASSED": "through", "UNDECLARED": "no"]

    @Test func thePlannerRecordsTypeParametersEdgesEnvironmentAndDirectories() throws {
        let graph = try plannedGraph(Self.pipeline, file: "/pipelines/photos.yaml", environment: Self.environment)
        #expect(graph.nodes.map(\.setup?.id) == ["show[lake]", "show[harbor]", "other", "keep[lake]", "keep[harbor]"])
        #expect(
            graph.nodes[4].setup
                == OperationSetup(
                    type: "save", id: "keep[harbor]", parameters: Parameters(["path": .string("kept/harbor.txt")]),
                    dependencies: ["other", "show[harbor]"], preferredInput: "show[harbor]",
                    pipelineDirectory: "/pipelines", outputDirectory: "/tmp/out"))
        #expect(
            graph.nodes[0].setup
                == OperationSetup(
                    type: "exec", id: "show[lake]",
                    parameters: Parameters([
                        "command": .list(["sh", "-c", #"echo "$0 $GREETING $PASSED"; pwd"#, "lake"]),
                        "env": .map(["GREETING": "hello", "OTHER": "x"]), "env_passthrough": .list(["PASSED"]),
                        "cwd": .string("work"), "grace_period": .duration(.seconds(2)),
                    ]),
                    environment: ["PATH": "/usr/bin:/bin", "PASSED": "through"],
                    pipelineDirectory: "/pipelines", outputDirectory: "/tmp/out"))
    }

    @Test func aSetupEncodesToJSONAndDecodesToAnEqualValue() throws {
        let graph = try plannedGraph(Self.pipeline, file: "/pipelines/photos.yaml", environment: Self.environment)
        for node in graph.nodes {
            let setup = try #require(node.setup)
            let decoded = try JSONDecoder().decode(OperationSetup.self, from: setup.canonicalJSON())
            #expect(decoded == setup)
        }
        let json = try #require(graph.nodes[4].setup).canonicalJSON()
        #expect(
            String(decoding: json, as: UTF8.self) == #"""
                {"dependencies":["other","show[harbor]"],"environment":{},"id":"keep[harbor]",\#
                "outputDirectory":"/tmp/out","parameters":{"values":{"path":{"string":{"_0":"kept/harbor.txt"}}}},\#
                "pipelineDirectory":"/pipelines","preferredInput":"show[harbor]","type":"save"}
                """#)
    }

    @Test func theActionMadeFromADecodedSetupBehavesTheSame() async throws {
        let directory = try makeScratchDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("work"), withIntermediateDirectories: false)
        let planned = try plannedGraph(
            Self.pipeline, file: directory.path + "/photos.yaml", environment: Self.environment)
        let setup = try #require(planned.nodes[1].setup)
        let decoded = try JSONDecoder().decode(OperationSetup.self, from: setup.canonicalJSON())
        var remade = ExecutionGraph()
        try remade.add(decoded.id, action: OperationRegistry.core.makeAction(for: decoded))
        let expected = "harbor hello through\n\(directory.path)/work\n"
        #expect(try await outputText(of: "show[harbor]", runningGraph: remade) == expected)
        #expect(
            try await outputText(of: "show[harbor]", runningGraph: planned.restricted(to: ["show[harbor]"])) == expected
        )
    }

    @Test func theSamePipelineEncodesToTheSameBytes() throws {
        let reordered = Self.pipeline
            .replacingOccurrences(of: "env: {GREETING: hello, OTHER: x}", with: "env: {OTHER: x, GREETING: hello}")
            .replacingOccurrences(of: "    cwd: work\n", with: "")
            .replacingOccurrences(of: "    op: exec\n", with: "    cwd: work\n    op: exec\n")
        #expect(reordered != Self.pipeline)
        let encodings = try [Self.pipeline, Self.pipeline, reordered].map { yaml in
            try plannedGraph(yaml, file: "/pipelines/photos.yaml", environment: Self.environment)
                .nodes.map { try #require($0.setup).canonicalJSON() }
        }
        #expect(encodings[0] == encodings[1])
        #expect(encodings[0] == encodings[2])
    }

    @Test func aSetupOfAnUnknownTypeMakesNoAction() {
        let setup = OperationSetup(
            type: "teleport", id: "t", parameters: Parameters(), pipelineDirectory: "/", outputDirectory: "/")
        #expect(throws: OperationError.unknownType("teleport")) {
            try OperationRegistry.core.makeAction(for: setup)
        }
    }
}
