import ArgumentParser
import TaskGraphCore
import TaskGraphReporting

/// What `run` may reuse from the store, and `explain` explains: `--no-cache`, `--force [<id>]`.
struct ReuseArguments: ParsableArguments {
    @Flag(help: "Reuse no stored result: every operation runs (its result is still recorded).")
    var noCache = false

    @Option(
        name: .customLong("force"),
        help: ArgumentHelp(
            "Reuse no stored result for this operation (tilt or tilt[lake]; repeatable) or what depends on it: they "
                + "run again. --force alone: for every operation.",
            valueName: "id"),
        completion: OperationIDCompletion.kind)
    var forced: [String] = []

    /// A bare `--force`, as `withBareForce` writes it.
    @Flag(name: .customLong(Self.bareForce), help: .private)
    var forceAll = false

    private static let bareForce = "force-all"

    /// Whether `--force` was given, with ids or without.
    var forcesAny: Bool { forceAll || !forced.isEmpty }

    /// What `--force` asks for in `graph`.
    /// - Throws: `ValidationError` naming `--force` for an id that selects nothing.
    func forcing(in graph: ExecutionGraph) throws -> RunCache.Forcing {
        if forceAll { return .all }
        return forced.isEmpty ? .none : .ids(try InstanceSelection.ids(forced, in: graph, option: "--force"))
    }

    /// With a bare `--force` and `targets` (ids after the file): `run FILE ID... --force` forced
    /// only the ids and their dependents before ids after the file became targets, so this says
    /// what it does now and how to write what it did.
    func noteTargetsWithBareForce(_ targets: [String]) {
        guard forceAll, !targets.isEmpty else { return }
        let ids = targets.joined(separator: " ")
        TextOutput.standardError.write(
            "taskgraph: note: ids after the file name are what to run: with a bare --force, \(ids) and everything "
                + "\(targets.count == 1 ? "it needs run" : "they need run") again; to run again only \(ids) and what "
                + "depends on \(targets.count == 1 ? "it" : "them"), write "
                + targets.map { "--force \($0)" }.joined(separator: " ") + "\n")
    }

    /// `arguments` (without the program name) with each bare `--force` of `run` or `explain`
    /// written `--force-all`. `--force` takes the next word as the id to force unless there is
    /// none, it starts with `-`, or it names a pipeline file (`run --force photos.yaml` reads
    /// photos.yaml as the pipeline, as before `--force` took ids); `--force=ID` always does.
    static func withBareForce(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, ["run", "explain"].contains(command) else { return arguments }
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        return arguments.indices.map { index in
            guard index < end, arguments[index] == "--force" else { return arguments[index] }
            let next = index + 1 < end ? arguments[index + 1] : nil
            let bare = next.map { $0.hasPrefix("-") || $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") } ?? true
            return bare ? "--\(bareForce)" : arguments[index]
        }
    }
}
