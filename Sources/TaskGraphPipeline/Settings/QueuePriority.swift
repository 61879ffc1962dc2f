/// The named priorities of `priority:` in a pipeline file, with the values of Foundation's
/// `Operation.QueuePriority`; any whole number in `range` may be written instead.
public enum QueuePriority: String, CaseIterable, Sendable {
    case veryLow = "very-low"
    case low
    case normal
    case high
    case veryHigh = "very-high"

    /// The number the name stands for: -8, -4, 0, 4, 8.
    public var value: Int {
        switch self {
        case .veryLow: -8
        case .low: -4
        case .normal: 0
        case .high: 4
        case .veryHigh: 8
        }
    }

    /// The numbers a pipeline file may give.
    public static let range = -100...100

    /// Every name with its number, for the format's checks.
    public static var values: [String: Int] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.value) })
    }

    /// How `priority` is shown: its name when it has one, else the number.
    public static func describe(_ priority: Int) -> String {
        allCases.first { $0.value == priority }?.rawValue ?? String(priority)
    }
}
