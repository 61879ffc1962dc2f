import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// `include:`: operations of other files, named after their include, with their own variables
/// and their own files in diagnostics.
@Suite struct PipelineIncludeTests {
    private let directory: String

    init() throws {
        directory = try makeScratchDirectory().path
    }

    private func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: directory + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func load(_ file: String = "pipeline.yaml", variables: [String: String] = [:]) throws(PipelineError)
        -> Pipeline
    {
        try Pipeline.load(
            file: directory + "/" + file,
            options: PipelineOptions(variables: variables, environment: [:], outputDirectory: directory + "/out"))
    }

    /// The diagnostics of `file`, with the scratch directory left out of their paths.
    private func diagnostics(_ file: String = "pipeline.yaml") -> [String] {
        do {
            return try load(file).warnings.map(\.description)
        } catch {
            return error.diagnostics.map { $0.description.replacingOccurrences(of: directory + "/", with: "") }
        }
    }

    private static let template = """
        version: 1
        vars:
          size: "100"
        operations:
          source:
            op: exec
            command: [echo, "${size}"]
          tilt:
            op: exec
            needs: source
            command: [cat]
        """

    @Test func includedOperationsAreNamedAfterTheirIncludeAndNeededAcrossFiles() throws {
        try write(Self.template, to: "lib/photos.yaml")
        try write(
            """
            version: 1
            include:
              photos: lib/photos.yaml
            operations:
              sheet:
                op: group
                needs: photos.tilt
            """, to: "pipeline.yaml")
        let pipeline = try load()
        let graph = pipeline.graph
        #expect(graph.nodes.map(\.id) == ["sheet", "photos.source", "photos.tilt"])
        #expect(
            graph.nodes.map { $0.dependencies.map { graph.nodes[$0].id } } == [["photos.tilt"], [], ["photos.source"]])
        #expect(pipeline.includedFiles == [directory + "/lib/photos.yaml"])
        #expect(graph.nodes[1].location == SourceLocation(file: directory + "/lib/photos.yaml", line: 5, column: 3))
    }

    @Test func oneTemplateIncludedTwiceWithItsOwnValues() throws {
        try write(Self.template, to: "lib/photos.yaml")
        try write(
            """
            version: 1
            vars:
              thumb: "320"
            include:
              small: {file: lib/photos.yaml, vars: {size: "${thumb}"}}
              large: {file: lib/photos.yaml, vars: {size: "$${literal}"}}
              plain: lib/photos.yaml
            """, to: "pipeline.yaml")
        let graph = try load().graph
        let commands = graph.nodes.filter { $0.id.hasSuffix(".source") }.map {
            "\($0.id) \($0.setup?.parameters.values["command"] ?? .list([]))"
        }
        #expect(
            commands == [
                "small.source [echo, 320]", "large.source [echo, ${literal}]", "plain.source [echo, 100]",
            ])
    }

    /// An included file sees its own variables and defaults, not those of the file including it.
    @Test func variablesAndDefaultsStayInTheirFile() throws {
        try write(
            """
            version: 1
            defaults: {retries: 2}
            operations:
              own: {op: exec, command: [echo]}
            """, to: "lib/own.yaml")
        try write(
            """
            version: 1
            operations:
              other: {op: exec, command: [echo, "${thumb}"]}
            """, to: "lib/other.yaml")
        try write(
            """
            version: 1
            vars: {thumb: "320"}
            defaults: {retries: 5}
            include: {own: lib/own.yaml}
            operations:
              root: {op: exec, command: [echo, "${thumb}"]}
            """, to: "pipeline.yaml")
        let graph = try load().graph
        #expect(graph.nodes.map { "\($0.id) \($0.settings.retries)" } == ["root 5", "own.own 2"])
        try write(
            """
            version: 1
            vars: {thumb: "320"}
            include: {other: lib/other.yaml}
            """, to: "pipeline.yaml")
        #expect(diagnostics() == ["lib/other.yaml:3:38: error: undefined variable 'thumb'"])
    }

    @Test func everyDiagnosticNamesItsOwnFile() throws {
        try write(
            """
            version: 1
            vars:
              size: "100"
            output: elsewhere
            operations:
              tilt:
                op: tilt-shift
                needs: [sourse]
            """, to: "lib/photos.yaml")
        try write(
            """
            version: 1
            include:
              photos: {file: lib/photos.yaml, vars: {sise: "3"}}
              missing: lib/none.yaml
              "a.b": lib/photos.yaml
            operations:
              sheet:
                op: group
                needs: photos.tilts
            """, to: "pipeline.yaml")
        #expect(
            diagnostics() == [
                "lib/photos.yaml:4:1: error: 'output' may only be set in the pipeline file that is run, not in an "
                    + "included file",
                "lib/photos.yaml:7:9: error: operation 'tilt': unknown operation type 'tilt-shift'",
                "lib/photos.yaml:8:13: error: operation 'photos.tilt' needs 'photos.sourse', which does not exist",
                "pipeline.yaml:3:42: error: 'lib/photos.yaml' declares no variable 'sise' under 'vars'; did you "
                    + "mean 'size'?",
                "pipeline.yaml:4:12: error: include 'missing': cannot read 'lib/none.yaml': No such file or directory",
                "pipeline.yaml:5:3: error: invalid include name 'a.b'; use letters, digits, '-' and '_'",
                "pipeline.yaml:9:12: error: operation 'sheet' needs 'photos.tilts', which does not exist; did you mean "
                    + "'photos.tilt'?",
            ])
    }

    @Test func anIncludeCycleNamesEveryInclude() throws {
        try write(
            """
            version: 1
            include:
              b: lib/b.yaml
            operations:
              a: {op: group}
            """, to: "pipeline.yaml")
        try write(
            """
            version: 1
            include:
              again: ../pipeline.yaml
            operations:
              b: {op: group}
            """, to: "lib/b.yaml")
        #expect(
            diagnostics() == [
                """
                lib/b.yaml:3:10: error: include cycle: pipeline.yaml -> lib/b.yaml -> pipeline.yaml
                pipeline.yaml:3:6: note: 'pipeline.yaml' includes 'lib/b.yaml' here
                lib/b.yaml:3:10: note: 'lib/b.yaml' includes 'pipeline.yaml' here
                """
            ])
    }

    /// Each of 12 files includes the next twice: 8,190 includes, refused past 1,000 (where the
    /// count runs out, at one include of each level below).
    @Test func includesThatMultiplyAreRefused() throws {
        for level in 0..<12 {
            try write(
                """
                version: 1
                include:
                  a: level\(level + 1).yaml
                  b: level\(level + 1).yaml
                """, to: "level\(level).yaml")
        }
        try write("version: 1\noperations:\n  leaf: {op: group}\n", to: "level12.yaml")
        let found = diagnostics("level0.yaml")
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.hasSuffix(": the pipeline includes more than 1000 files in all") }, "\(found)")
    }

    @Test func anIdDeclaredInTwoFilesIsAnError() throws {
        try write(Self.template, to: "lib/photos.yaml")
        try write(
            """
            version: 1
            include:
              photos: lib/photos.yaml
            operations:
              photos.tilt: {op: group}
            """, to: "pipeline.yaml")
        #expect(
            diagnostics() == [
                """
                lib/photos.yaml:8:3: error: operation id 'photos.tilt' is declared twice
                pipeline.yaml:5:3: note: 'photos.tilt' is first declared here
                """
            ])
    }

    /// Paths in an included file are the pipeline file's: an included operation reads what it
    /// would read written in the pipeline file, and has the same key.
    @Test func theSameOperationIncludedOrInlineHasTheSameKey() async throws {
        try write("data\n", to: "data/in.txt")
        let operation = """
              convert:
                op: exec
                command: [cat, data/in.txt]
                inputs: [data/in.txt]
                outputs: [converted.txt]
            """
        try write("version: 1\noperations:\n" + operation, to: "lib/convert.yaml")
        try write("version: 1\ninclude:\n  lib: lib/convert.yaml\n", to: "included.yaml")
        try write(
            "version: 1\noperations:\n" + operation.replacingOccurrences(of: "  convert:", with: "  lib.convert:"),
            to: "inline.yaml")
        var keys: [KeyComponents] = []
        for file in ["included.yaml", "inline.yaml"] {
            let node = try #require(try load(file).graph.nodes.first)
            let action = try #require(node.action as? any CacheableAction)
            #expect((node.action as? any FileReadingAction)?.filesRead == [directory + "/data/in.txt"])
            keys.append(try await KeyComponents.of(node, action: action, inputs: [], files: HashingFileDigests()))
        }
        #expect(keys[0] == keys[1])
        #expect(keys[0]["file.data/in.txt"] != nil)
    }
}
