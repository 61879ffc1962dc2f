/// The type of an operation parameter, checked by `validate`.
public enum ParameterType: Hashable, Sendable {
    /// Any string.
    case string
    /// A whole number within the range.
    case integer(ClosedRange<Int>)
    /// A number within the range.
    case number(ClosedRange<Double>)
    /// `true` or `false`.
    case boolean
    /// A duration such as `30s`, `500ms`, `2m`, `1h30m`, or a number of seconds.
    case duration
    /// One of a fixed set of words.
    case choice([String])
    /// A whole number within the range, or one of the names, which stand for numbers.
    case namedInteger([String: Int], ClosedRange<Int>)
    /// A list of strings with at least this many elements.
    case stringList(minimumCount: Int)
    /// A mapping of strings to strings.
    case stringMap
    /// A path inside the output directory; may not escape it.
    case outputPath
    /// A path to read, relative to the pipeline file's directory.
    case inputPath

    /// How the type is written in help, `list-ops` and docs/pipeline.md.
    public var displayName: String {
        switch self {
        case .string: "string"
        case .integer(let range): "integer \(range.lowerBound)…\(Self.format(range.upperBound))"
        case .number(let range): "number \(range.lowerBound)…\(range.upperBound)"
        case .boolean: "boolean"
        case .duration: "duration"
        case .choice(let words): words.joined(separator: " | ")
        case .namedInteger(let names, let range):
            Self.sortedNames(names).joined(separator: " | ") + " | " + ParameterType.integer(range).displayName
        case .stringList: "list of strings"
        case .stringMap: "map of strings"
        case .outputPath: "output path"
        case .inputPath: "input path"
        }
    }

    /// The names of a `namedInteger`, in the order of their numbers.
    public static func sortedNames(_ names: [String: Int]) -> [String] {
        names.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
    }

    private static func format(_ bound: Int) -> String {
        bound == .max ? "∞" : String(bound)
    }
}
