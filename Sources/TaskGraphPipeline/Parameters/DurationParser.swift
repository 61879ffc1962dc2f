import Foundation

/// Reads and writes durations as pipeline files spell them: `250ms`, `30s`, `1.5s`, `2m`, `1h30m`,
/// or a bare number of seconds.
public enum DurationParser {
    private static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600),
    ]

    /// The longest duration read: 100 years (3,153,600,000 s). Longer is no time limit anyone
    /// means, and would overflow the clocks' arithmetic.
    public static let largestSeconds: Double = 100 * 365 * 86_400

    /// The duration `text` denotes, or nil if it is not a duration of at most `largestSeconds`.
    public static func parse(_ text: String) -> Duration? {
        let trimmed =
            text.utf8.first == UInt8(ascii: " ") || text.utf8.last == UInt8(ascii: " ")
            ? text.trimmingCharacters(in: .whitespaces) : text
        if let seconds = Double(trimmed), seconds >= 0, seconds.isFinite {
            return seconds <= largestSeconds ? .milliseconds(Int64((seconds * 1000).rounded())) : nil
        }
        var remaining = Substring(trimmed)
        var total = 0.0
        guard !remaining.isEmpty else { return nil }
        while !remaining.isEmpty {
            let numberText = remaining.prefix { $0.isNumber || $0 == "." }
            guard let number = Double(numberText) else { return nil }
            remaining = remaining.dropFirst(numberText.count)
            let unitText = remaining.prefix { $0.isLetter }
            guard let unit = units.first(where: { $0.suffix == unitText }) else { return nil }
            remaining = remaining.dropFirst(unitText.count)
            total += number * unit.seconds
        }
        guard total <= largestSeconds else { return nil }
        return .milliseconds(Int64((total * 1000).rounded()))
    }

    /// The shortest spelling of `duration` that `parse` reads back.
    public static func format(_ duration: Duration) -> String {
        let milliseconds =
            duration.components.seconds * 1000
            + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 != 0 { return "\(milliseconds)ms" }
        let seconds = milliseconds / 1000
        if seconds % 3600 == 0, seconds > 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0, seconds > 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}
