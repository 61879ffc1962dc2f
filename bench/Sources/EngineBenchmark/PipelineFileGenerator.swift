import Foundation

/// Writes a large valid pipeline file whose operations each need up to three earlier ones (like
/// the random benchmark shape): `exec` and `group` alternating (for `validate`, which parses,
/// checks and plans it all), or only `group` (for `run`, so the engine's overhead is measured).
enum PipelineFileGenerator {
    static func write(operations: Int, to path: String, groupsOnly: Bool = false) throws {
        var text = "version: 1\nname: generated\ndefaults:\n  retries: 1\n  timeout: 30s\noperations:\n"
        text.reserveCapacity(operations * 80)
        let dependencies = BenchmarkShape.random.dependencies(count: operations)
        for (index, needs) in dependencies.enumerated() {
            text += "  op\(index):\n"
            if index % 2 == 0, !groupsOnly {
                text += "    op: exec\n    command: [echo, \"\(index)\"]\n"
            } else {
                text += "    op: group\n"
            }
            if !needs.isEmpty { text += "    needs: [" + needs.map { "op\($0)" }.joined(separator: ", ") + "]\n" }
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
