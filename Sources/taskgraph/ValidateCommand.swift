import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting

/// `taskgraph validate`: checks pipeline files without running anything.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check pipeline files and print every problem, without running anything.",
        discussion: "Exit 0 when every file is valid, 2 otherwise.")

    @Argument(
        help: "Pipeline files (default: every *.yaml and *.yml under ./pipelines).",
        completion: .file(extensions: ["yaml", "yml"]))
    var files: [String] = []

    @OptionGroup var pipeline: PipelineArguments

    func run() async throws {
        let files = try self.files.isEmpty ? Self.defaultFiles() : self.files
        var checking = try pipeline.pipelineOptions()
        checking.checksFiles = true
        let options = checking
        var results: [String: [Diagnostic]] = [:]
        for file in files {
            do {
                let pipeline = try await BlockingIO.run { try Pipeline.load(file: file, options: options) }
                results[file] = pipeline.warnings + pipeline.notes
            } catch let error as PipelineError {
                try PipelineLoading.checkVariableOptions(error.diagnostics, options: options)
                results[file] = error.diagnostics
            }
        }
        let all = Array(results.values.joined()).sortedForDisplay()
        PipelineLoading.printDiagnostics(all)
        TextOutput.standardError.write(PipelineLoading.verdict(for: results) + "\n")
        TextOutput.standardError.flush()
        if all.containsErrors { throw ExitCode(CLIExitCode.invalidPipeline) }
    }

    private static func defaultFiles() throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "pipelines")) ?? []
        let files = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { "pipelines/\($0)" }
        guard !files.isEmpty else { throw ValidationError("no pipeline files given and none found under ./pipelines") }
        return files
    }
}
