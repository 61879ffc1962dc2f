import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// `foreach: {glob: …}`: one instance per file, real files in a scratch directory.
@Suite struct ForeachGlobTests {
    private let directory: URL

    init() throws {
        directory = try makeScratchDirectory()
        for path in [
            "photos/mountains.jpg", "photos/sunset.jpg", "photos/.hidden.jpg", "photos/2024/beach.jpg",
            "photos/notes.txt",
        ] {
            try touch(path)
        }
    }

    private func touch(_ path: String) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(path.utf8).write(to: url)
    }

    /// Loads `yaml` as `p.yaml` in the scratch directory.
    private func load(_ yaml: String) throws(PipelineError) -> Pipeline {
        try Pipeline.load(
            text: yaml, file: directory.appendingPathComponent("p.yaml").path,
            options: PipelineOptions(environment: [:], outputDirectory: "/tmp/out"))
    }

    /// The diagnostics of `yaml`, the scratch directory left out of their locations.
    private func diagnostics(_ yaml: String) -> [String] {
        let prefix = directory.path + "/"
        do {
            return try load(yaml).warnings.map { $0.description.replacingOccurrences(of: prefix, with: "") }
        } catch {
            return error.diagnostics.map { $0.description.replacingOccurrences(of: prefix, with: "") }
        }
    }

    @Test func idsAreThePathBelowTheFixedPrefixWithoutExtensionAndFieldsNameTheFile() throws {
        let graph = try load(
            """
            version: 1
            operations:
              tag:
                foreach: {glob: "photos/**/*.jpg"}
                op: exec
                command: [echo, "${item}", "${item.name}", "${item.stem}", "${item.ext}", "${item.dir}"]
            """
        ).graph
        #expect(graph.nodes.map(\.id) == ["tag[2024/beach]", "tag[mountains]", "tag[sunset]"])
        #expect(
            graph.nodes[0].parameters.list("command") == [
                "echo", "photos/2024/beach.jpg", "beach.jpg", "beach", ".jpg", "photos/2024",
            ])
        #expect(
            graph.nodes[1].parameters.list("command") == [
                "echo", "photos/mountains.jpg", "mountains.jpg", "mountains", ".jpg", "photos",
            ])
    }

    @Test func hiddenFilesOnlyWhenThePatternNamesThemAndListsOfPatternsMergeSorted() throws {
        let hidden = try load(
            """
            version: 1
            operations:
              a: {foreach: {glob: "photos/.*.jpg"}, op: group}
              b: {foreach: {glob: ["photos/*.txt", "photos/*.jpg", "photos/s*"]}, op: group}
            """
        ).graph
        #expect(hidden.nodes.map(\.id) == ["a[.hidden]", "b[mountains]", "b[notes]", "b[sunset]"])
    }

    @Test func globOperationsPairByIDAndFanIn() throws {
        let graph = try load(
            """
            version: 1
            operations:
              load: {foreach: {glob: "photos/*.jpg"}, op: load, path: "${item}"}
              keep: {foreach: {glob: "photos/*.jpg"}, op: save, needs: load, path: "${item.stem}.jpg"}
              all: {op: group, needs: keep}
            """
        ).graph
        #expect(graph.nodes.map(\.id) == ["load[mountains]", "load[sunset]", "keep[mountains]", "keep[sunset]", "all"])
        #expect(graph.nodes.map(\.dependencies) == [[], [], [0], [1], [2, 3]])
    }

    @Test func aNewFileMakesItsInstancesAndARemovedOnesDisappear() throws {
        let yaml = """
            version: 1
            operations:
              load: {foreach: {glob: "photos/*.jpg"}, op: load, path: "${item}"}
            """
        try touch("photos/lake.jpg")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("photos/sunset.jpg"))
        #expect(try load(yaml).graph.nodes.map(\.id) == ["load[lake]", "load[mountains]"])
    }

    @Test func nothingMatchedTwoFilesWithOneIDAndBadIDsAreErrors() throws {
        try touch("photos/mountains.png")
        try touch("photos/odd].jpg")
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a: {foreach: {glob: ["photos/*", "none/*.jpg"]}, op: group}
                  b: {foreach: {glob: "none/*.jpg", allow_empty: true}, op: group}
                  c: {foreach: {glob: "photos/*.jpg"}, op: group}
                """) == [
                    "p.yaml:3:24: error: operation 'a': foreach glob gives two files the instance id 'mountains': "
                        + "photos/mountains.jpg and photos/mountains.png",
                    "p.yaml:3:24: error: operation 'a': foreach glob matches 'photos/odd].jpg', whose instance id "
                        + "'odd]' must be non-empty and contain no ']'",
                    "p.yaml:3:36: error: operation 'a': foreach glob 'none/*.jpg' matches no file",
                    "p.yaml:5:23: error: operation 'c': foreach glob matches 'photos/odd].jpg', whose instance id "
                        + "'odd]' must be non-empty and contain no ']'",
                ])
    }

    @Test func foreachMappingsAreCheckedKeyByKey() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a: {foreach: "photos/*.jpg", op: group}
                  b: {foreach: {glob: "photos/*.jpg", matrix: {x: [1]}}, op: group}
                  c: {foreach: {allow_empty: true}, op: group}
                  d: {foreach: {glob: "photos/*.jpg", exclude: [{x: 1}], globs: x}, op: group}
                  e: {foreach: {glob: {x: 1}, allow_empty: maybe}, op: group}
                  f: {foreach: {glob: "photos/*.jpg"}, op: exec, command: ["${item.size}"]}
                """) == [
                    "p.yaml:3:16: error: operation 'a': 'foreach' must be a list or a list variable such as ${photos}, "
                        + "not 'photos/*.jpg'; for the files it matches write 'foreach: {glob: \"photos/*.jpg\"}'",
                    "p.yaml:4:16: error: operation 'b': 'foreach' takes 'glob' or 'matrix', not both",
                    "p.yaml:5:16: error: operation 'c': 'foreach' needs 'glob' (files) or 'matrix' (combinations)",
                    "p.yaml:6:48: error: operation 'd': 'exclude' goes with 'matrix'",
                    "p.yaml:6:58: error: operation 'd': unknown 'foreach' key 'globs'; did you mean 'glob'?",
                    "p.yaml:7:23: error: operation 'e': 'glob' must be a pattern or a list of patterns, not a mapping",
                    "p.yaml:7:44: error: operation 'e': 'allow_empty' must be true or false, not 'maybe'",
                    "p.yaml:8:61: error: '${item.size}' is not defined (its items have dir, ext, name, stem)",
                ])
    }
}
