/// A checked parameter value. Codable so a planned operation can be stored and shipped later
/// (cache keys, cluster executors).
public enum ParameterValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case duration(Duration)
    case list([String])
    case map([String: String])

    /// The value as a user would write it in YAML.
    public var description: String {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .boolean(let flag): String(flag)
        case .duration(let duration): DurationParser.format(duration)
        case .list(let items): "[" + items.joined(separator: ", ") + "]"
        case .map(let pairs):
            "{" + pairs.sorted { $0.key < $1.key }.map { "\($0): \($1)" }.joined(separator: ", ") + "}"
        }
    }

    /// The value as a user would write it, a whole number without its `.0` (`6`, not `6.0`).
    package var writtenText: String {
        if case .number(let number) = self, number == number.rounded(), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return description
    }
}
