/// `taskgraph run --lint`: every `exec` that runs does so under a file-access tracer (an
/// `LD_PRELOAD` library, `libTaskGraphFileTrace.so`), and the files it read or wrote under the
/// pipeline directory or the output directory without declaring them are reported, with where
/// the operation declares its files. The setting of one run: the caller puts it in the run's
/// `RunResources`. It changes no cache key, and an operation whose result is reused runs nothing
/// to trace.
public struct FileAccessLint: Sendable {
    /// What an undeclared access does.
    public enum Mode: String, Sendable, CaseIterable {
        /// A warning event; the operation succeeds as usual (`--lint`).
        case warn
        /// The operation fails with the same text (`--lint=error`).
        case error
    }

    /// Where an operation is declared and where it declares its files, for messages.
    public struct Declarations: Sendable, Hashable {
        /// Where its `inputs:` are written, if it has some.
        public var inputs: SourceLocation?
        /// Where its `outputs:` are written, if it has some.
        public var outputs: SourceLocation?
        /// Where the operation is declared.
        public var operation: SourceLocation?

        /// Locations of one operation.
        public init(inputs: SourceLocation? = nil, outputs: SourceLocation? = nil, operation: SourceLocation? = nil) {
            self.inputs = inputs
            self.outputs = outputs
            self.operation = operation
        }
    }

    /// The file name of the tracer library, which a build puts beside the taskgraph executable.
    public static let tracerLibraryName = "libTaskGraphFileTrace.so"
    /// The environment variable that names the trace file (FileAccessTrace.h).
    static let traceVariable = "TASKGRAPH_FILE_TRACE"

    /// What an undeclared access does.
    public let mode: Mode
    /// The tracer library's absolute path.
    public let tracerLibrary: String
    /// By operation instance id.
    private let declarations: [String: Declarations]

    /// The setting for a run of `graph`.
    /// - Parameters:
    ///   - mode: whether an undeclared access warns or fails the operation.
    ///   - tracerLibrary: the absolute path of `libTaskGraphFileTrace.so`.
    ///   - graph: the graph the run runs: where each `exec` declares its files.
    public init(mode: Mode, tracerLibrary: String, graph: ExecutionGraph) {
        self.mode = mode
        self.tracerLibrary = tracerLibrary
        var declarations: [String: Declarations] = [:]
        for node in graph.nodes where node.type == ExecOperation.type.name {
            declarations[node.id] = Declarations(
                inputs: node.parameterLocations["inputs"], outputs: node.parameterLocations["outputs"],
                operation: node.location)
        }
        self.declarations = declarations
    }

    /// Where operation `id` declares its files; nothing is known of one built in code.
    func declarations(of id: String) -> Declarations {
        declarations[id] ?? Declarations()
    }
}
