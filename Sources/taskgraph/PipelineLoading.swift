import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting

/// Loading pipelines off the cooperative pool and printing their diagnostics.
enum PipelineLoading {
    /// Loads `file` (from `bytes`, its contents, when they were read already), printing
    /// warnings; on errors prints them with a verdict and exits 2.
    static func load(_ file: String, bytes: Data? = nil, options: PipelineOptions) async throws -> Pipeline {
        do {
            let pipeline = try await BlockingIO.run {
                try bytes.map { try Pipeline.load(bytes: $0, file: file, options: options) }
                    ?? Pipeline.load(file: file, options: options)
            }
            printDiagnostics(pipeline.warnings)
            return pipeline
        } catch let error as PipelineError {
            try checkVariableOptions(error.diagnostics, options: options)
            printDiagnostics(error.diagnostics)
            TextOutput.standardError.write(verdict(for: [file: error.diagnostics]) + "\n")
            TextOutput.standardError.flush()
            throw ExitCode(CLIExitCode.invalidPipeline)
        }
    }

    /// A usage error (exit 64) naming the `--var` option when one of `diagnostics` is about
    /// a `--var` value (a variable the pipeline does not declare, an empty list item).
    /// - Throws: `ValidationError` for the first such diagnostic.
    static func checkVariableOptions(_ diagnostics: [Diagnostic], options: PipelineOptions) throws {
        let prefix = "--var "
        guard let error = diagnostics.first(where: { $0.severity == .error && $0.location.file.hasPrefix(prefix) })
        else { return }
        let name = String(error.location.file.dropFirst(prefix.count))
        throw ValidationError("--var \(name)=\(options.variables[name] ?? ""): \(error.message)")
    }

    /// Prints diagnostics to standard error, one per line (notes follow their error).
    static func printDiagnostics(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { TextOutput.standardError.write(escapedLines(diagnostic.description) + "\n") }
    }

    /// `2 errors, 1 warning in 1 of 3 files` or `3 files valid`.
    static func verdict(for results: [String: [Diagnostic]]) -> String {
        let all = results.values.joined()
        let errors = all.filter { $0.severity == .error }.count
        let warnings = all.filter { $0.severity == .warning }.count
        let invalid = results.values.filter(\.containsErrors).count
        let files = results.count == 1 ? "1 file" : "\(results.count) files"
        let warningText = warnings == 0 ? "" : ", \(plural(warnings, "warning"))"
        if errors == 0 { return "\(files) valid\(warningText)" }
        return "\(plural(errors, "error"))\(warningText) in \(invalid) of \(files): invalid"
    }

    /// `text` with control characters escaped in each line; its line breaks (a diagnostic's
    /// notes) kept.
    private static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { DisplayText.escaped(String($0)) }.joined(separator: "\n")
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}

/// The exit codes taskgraph documents.
enum CLIExitCode {
    static let operationFailed: Int32 = 1
    static let invalidPipeline: Int32 = 2
    static let interrupted: Int32 = 130
    static let terminated: Int32 = 143
}
