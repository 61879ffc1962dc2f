/// Why an event stream could not be read as a run.
public enum RecordedRunError: Error, Equatable, Sendable {
    /// Line `line` (from 1) is not a JSON event object.
    case notAnEvent(source: String, line: Int)
    /// The stream has no `run_started` event: it is not a taskgraph event stream.
    case noRunStarted(source: String)
    /// Line `line` holds a number of seconds, `key`, outside 0…`RecordedRunError.largestSeconds`.
    case outOfRange(source: String, line: Int, key: String, value: Double)

    /// The largest number of seconds an event may hold (about 31 years): more is no time a run
    /// took, and would overflow a `Duration`.
    public static let largestSeconds: Double = 1e9

    /// Throws `outOfRange` unless each of `values` (a key and its number, when present) is a
    /// number of seconds from 0 to `largestSeconds`.
    static func checkSeconds(_ values: [(String, Double?)], source: String, line: Int) throws(RecordedRunError) {
        for case (let key, let value?) in values where !(0...largestSeconds).contains(value) {
            throw .outOfRange(source: source, line: line, key: key, value: value)
        }
    }
}

extension RecordedRunError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notAnEvent(let source, let line):
            "\(source):\(line): not a taskgraph event (a JSON object with an \"event\" key)"
        case .noRunStarted(let source):
            "\(source): no run_started event: not an event stream written by 'taskgraph run --events'"
        case .outOfRange(let source, let line, let key, let value):
            "\(source):\(line): '\(key)' must be a number of seconds from 0 to 1e9, not \(value)"
        }
    }
}
