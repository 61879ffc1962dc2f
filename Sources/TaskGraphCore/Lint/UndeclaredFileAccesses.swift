/// The files one traced `exec` read or wrote without declaring them, as `run --lint` reports
/// them: only files under the pipeline directory or the output directory count, directories and
/// the program's own file never do.
struct UndeclaredFileAccesses: Equatable, Sendable {
    /// What decides which accesses are declared; every path canonical (`FileAccessTrace.canonicalPath`).
    struct Rules: Sendable {
        /// The pipeline file's directory: paths under it are shown relative to it.
        var pipelineDirectory: String
        /// The run's output directory.
        var outputDirectory: String
        /// What the operation may read: its inputs and outputs, and the files of its dependencies' results.
        var readable: Set<String>
        /// What the operation may write: its outputs.
        var writable: Set<String>
        /// Never reported: the program, the trace file.
        var ignored: Set<String>
    }

    /// Files read without being declared, as shown (sorted).
    var reads: [String] = []
    /// Files written without being declared, as shown (sorted).
    var writes: [String] = []

    var isEmpty: Bool { reads.isEmpty && writes.isEmpty }

    /// The undeclared accesses of `trace` under `rules`.
    /// - Parameter isDirectory: whether a path names a directory now (it blocks: `FileKind`).
    init(_ trace: FileAccessTrace, rules: Rules, isDirectory: (String) -> Bool) {
        func counts(_ path: String) -> Bool {
            (Self.isUnder(path, rules.pipelineDirectory) || Self.isUnder(path, rules.outputDirectory))
                && !rules.ignored.contains(path) && !isDirectory(path)
        }
        reads = trace.read.subtracting(rules.readable).filter(counts).map { Self.shown($0, rules) }.sorted()
        writes = trace.written.subtracting(rules.writable).filter(counts).map { Self.shown($0, rules) }.sorted()
    }

    /// One message per file, reads first: `lint: compile[util] read src/util.h, which it does
    /// not declare (inputs: at build.yaml:9:13)`.
    func messages(operation id: String, declarations: FileAccessLint.Declarations) -> [String] {
        let readWhere = Self.location("inputs", declarations.inputs, operation: declarations.operation)
        let writeWhere = Self.location("outputs", declarations.outputs, operation: declarations.operation)
        return reads.map { "lint: \(id) read \($0), which it does not declare\(readWhere)" }
            + writes.map { "lint: \(id) wrote \($0), which it does not declare\(writeWhere)" }
    }

    /// ` (inputs: at FILE:L:C)`, or the operation's location when it has no such parameter.
    private static func location(_ parameter: String, _ at: SourceLocation?, operation: SourceLocation?) -> String {
        if let at { return " (\(parameter): at \(at))" }
        if let operation { return " (no \(parameter): in the operation at \(operation))" }
        return ""
    }

    /// `path` relative to the pipeline directory when under it, else absolute.
    private static func shown(_ path: String, _ rules: Rules) -> String {
        rules.pipelineDirectory != "/" && isUnder(path, rules.pipelineDirectory)
            ? String(path.dropFirst(rules.pipelineDirectory.count + 1)) : path
    }

    private static func isUnder(_ path: String, _ directory: String) -> Bool {
        directory == "/"
            ? path.hasPrefix("/") : path.hasPrefix(directory) && path.dropFirst(directory.count).hasPrefix("/")
    }
}
