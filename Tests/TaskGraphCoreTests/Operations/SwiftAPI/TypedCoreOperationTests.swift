import Foundation
import OperationTestSupport
import TaskGraphCore
import Testing

/// `Exec`, `Load`, `Save` and `Group`: keyed as the same operations in a pipeline file, checked
/// with `validate`'s messages.
struct TypedCoreOperationTests {
    @Test func eachTypedOperationIsKeyedAsTheSameOperationInAPipelineFile() async throws {
        let directory = try makeScratchDirectory().path
        try Data("int main(void) { return 0; }\n".utf8).write(to: URL(fileURLWithPath: directory + "/main.c"))
        let environment = ["PATH": "/usr/bin:/bin", "HOME": "/home/someone", "API_TOKEN": "s3cret"]
        var graph = ExecutionGraph()
        let source = try graph.add("source", action: Load(path: "main.c", directory: directory))
        let build = try graph.add(
            "build",
            action: Exec(
                command: ["cc", "-o", "app", "main.c"], inputs: ["*.c"], outputs: ["app"],
                envPassthrough: ["API_TOKEN"],
                gracePeriod: .seconds(5), directory: directory, environment: environment),
            needs: [source])
        let copy = try graph.add(
            "copy", action: Save(path: "main.c", outputDirectory: directory + "/out"), needs: [source])
        try graph.add("all", action: Group(), needs: [build, copy])
        let text = """
            version: 1
            name: chain
            operations:
              source: {op: load, path: main.c}
              build: {op: exec, needs: source, command: [cc, -o, app, main.c], inputs: ["*.c"], outputs: [app],\
             env_passthrough: [API_TOKEN], grace_period: 5s}
              copy: {op: save, needs: source, path: main.c}
              all: {op: group, needs: [build, copy]}
            """
        let planned = try plannedGraph(
            text, in: directory, registry: .core, environment: environment, outputDirectory: directory + "/out")
        let typedKeys = try await keys(of: graph)
        #expect(typedKeys.count == 4)
        #expect(typedKeys == (try await keys(of: planned)))
    }

    @Test func aPathThatLeavesTheOutputDirectoryGetsTheMessageValidateGives() throws {
        do {
            _ = try Save(path: "../escape.txt", outputDirectory: "/tmp/out")
            Issue.record("Save accepted a path outside its output directory")
        } catch {
            #expect(
                String(describing: error)
                    == "'save': 'path' must be a relative path that stays inside the output directory, not "
                    + "'../escape.txt'"
            )
        }
    }
}
