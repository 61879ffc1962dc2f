import Foundation
import Testing

/// An `exec` runs in its pipeline file's directory, where its `inputs:` and `outputs:` are, from
/// wherever taskgraph is started; `cwd: ${env.PWD}` brings back the directory taskgraph was
/// started in.
@Suite struct ExecWorkingDirectoryTests {
    @Test func anExecRunsInThePipelineFilesDirectoryFromAnywhere() async throws {
        let directory = try fixtureDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("build/src"), withIntermediateDirectories: true)
        try write(
            """
            version: 1
            name: build
            operations:
              compile:
                op: exec
                command: [sh, -c, 'mkdir -p obj && cat src/main.c > obj/main.o']
                inputs: [src/main.c]
                outputs: [obj/main.o]
            """, to: "build/build.yaml", in: directory)
        try write("int main;\n", to: "build/src/main.c", in: directory)
        let result = try await TaskGraphProcess.run(["run", "build/build.yaml", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(of: "build/obj/main.o", in: directory) == ["int main;"])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("obj").path))
    }

    /// The README's one-line change for a pipeline that relied on the current directory; the
    /// directory, written out, is part of the key.
    @Test func cwdFromThePWDVariableRunsInTheDirectoryTaskgraphWasStartedIn() async throws {
        let directory = try fixtureDirectory()
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("pipelines"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try write(
            """
            version: 1
            name: where
            operations:
              where: {op: exec, command: [pwd], cwd: '${env.PWD}', cache: true}
              keep: {op: save, needs: where, path: where.txt}
            """, to: "pipelines/where.yaml", in: directory)
        let cache = directory.appendingPathComponent("cache").path
        let pipeline = directory.appendingPathComponent("pipelines/where.yaml").path
        var explained: [String] = []
        for start in [directory, directory, elsewhere] {
            // A shell sets PWD to the directory it starts a program in.
            let result = try await TaskGraphProcess.run(
                ["run", pipeline, "--no-progress", "--logs", "none", "--explain", "--output", directory.path + "/out"],
                in: start, environment: ["PWD": start.path, "TASKGRAPH_CACHE_DIR": cache])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(lines(of: "out/where.txt", in: directory) == [Substring(start.path)])
            explained.append(result.stdout)
        }
        #expect(
            explained == [
                "where: run: new\nkeep: run: new\n",
                "where: cached\nkeep: cached\n",
                "where: run: command changed\nkeep: run: input changed: where <- command changed in where\n",
            ])
    }
}
