import ArgumentParser
import TaskGraphCore
import TaskGraphReporting

/// `run --logs prefixed|grouped|errors|none`: which lines of `exec` programs are shown, and when
/// (docs/cli.md, "Options of run"). `--output` stays the output directory.
struct LogArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Show exec programs' lines prefixed with the operation id: as they arrive (prefixed), each operation's "
                + "together when it ends (grouped), only failed operations' (errors), or none. Standard output a "
                + "dependent reads as data is not shown.",
            valueName: "mode"))
    var logs: ProgramOutputLog.Mode = .prefixed

    /// Which lines the run's programs report as they write them: none with `--logs none`.
    func streamedOutput(for graph: ExecutionGraph) -> StreamedOutput? {
        logs == .none ? nil : StreamedOutput(graph: graph, registry: .builtIn)
    }
}

extension ProgramOutputLog.Mode: ArgumentChoice {}
