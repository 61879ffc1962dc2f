import ArgumentParser
import Foundation
import TaskGraphCore

/// `run --lint[=warn|error]`: run every `exec` under the file-access tracer and report the files
/// it read or wrote without declaring them (README, "Finding undeclared files: --lint").
struct LintArguments: ParsableArguments {
    /// What `--lint` accepts.
    enum Mode: String, ArgumentChoice {
        case warn
        case error
    }

    @Option(
        name: .customLong("lint"),
        help: ArgumentHelp(
            "Trace the files each exec that runs reads and writes; report those under the pipeline or output directory "
                + "it does not declare: as warnings (--lint, --lint=warn) or as failures (--lint=error).",
            valueName: "mode"))
    var mode: Mode?

    /// `arguments` (without the program name) with a bare `--lint` of `run` written `--lint=warn`:
    /// like `git --color[=when]`, the mode is given only after `=`, so `run --lint FILE` reads
    /// FILE as the pipeline.
    static func withImplicitMode(_ arguments: [String]) -> [String] {
        guard arguments.first == "run" else { return arguments }
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        return arguments.enumerated().map { index, argument in
            index < end && argument == "--lint" ? "--lint=\(Mode.warn.rawValue)" : argument
        }
    }

    /// The run's setting for `graph`, or nil without `--lint`.
    /// - Throws: `ValidationError` when the tracer library is not beside the taskgraph executable.
    func fileAccessLint(for graph: ExecutionGraph) async throws -> FileAccessLint? {
        guard let mode else { return nil }
        let tracer = try await BlockingIO.run { () -> String? in
            let executable =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            let tracer = PathResolver.resolve(
                FileAccessLint.tracerLibraryName, in: (executable as NSString).deletingLastPathComponent)
            return FileKind(at: tracer) == .regular ? tracer : nil
        }
        guard let tracer else {
            throw ValidationError(
                "--lint: the file-access tracer \(FileAccessLint.tracerLibraryName) is not beside the taskgraph "
                    + "executable; "
                    + "'swift build' builds it there ('swift build --product TaskGraphFileTrace' alone)")
        }
        return FileAccessLint(mode: mode == .error ? .error : .warn, tracerLibrary: tracer, graph: graph)
    }
}
