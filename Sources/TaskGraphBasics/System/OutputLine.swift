/// One line a running program wrote, for the people watching the run (`taskgraph run --logs`);
/// a `ProgressUpdate` carries it to the event sinks.
public struct OutputLine: Sendable, Hashable, Codable {
    /// Where the program wrote it.
    public enum Stream: String, Sendable, Hashable, Codable {
        case standardOutput = "stdout"
        case standardError = "stderr"
    }

    /// Where the program wrote it.
    public var stream: Stream
    /// The line without its newline (invalid UTF-8 replaced).
    public var text: String
    /// Whether it was recorded by an earlier run whose result this run reuses, not written now.
    public var replayed: Bool

    /// A line written to `stream`.
    public init(_ stream: Stream, _ text: String, replayed: Bool = false) {
        self.stream = stream
        self.text = text
        self.replayed = replayed
    }
}
