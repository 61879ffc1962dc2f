/// Why an event stream could not be read as a run.
public enum RecordedRunError: Error, Equatable, Sendable {
    /// Line `line` (from 1) is not a JSON event object.
    case notAnEvent(source: String, line: Int)
    /// The stream has no `run_started` event: it is not a taskgraph event stream.
    case noRunStarted(source: String)
}

extension RecordedRunError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notAnEvent(let source, let line):
            "\(source):\(line): not a taskgraph event (a JSON object with an \"event\" key)"
        case .noRunStarted(let source):
            "\(source): no run_started event: not an event stream written by 'taskgraph run --events'"
        }
    }
}
