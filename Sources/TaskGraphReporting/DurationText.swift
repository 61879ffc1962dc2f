import Foundation
import TaskGraphCore

/// Formats durations for people: `850ms`, `12.3s`, `4m05s`.
public enum DurationText {
    /// A compact rendering of `duration`.
    public static func format(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        if seconds < 1 { return "\(Int((seconds * 1000).rounded()))ms" }
        if seconds < 60 { return String(format: "%.1fs", seconds) }
        let whole = Int(seconds.rounded())
        return String(format: "%dm%02ds", whole / 60, whole % 60)
    }

    /// `units` (a count of 1/10^`decimals`, not negative) as a decimal number with `decimals`
    /// digits after the point, left-padded with spaces to `width`: `fixed(12345, decimals: 1,
    /// width: 7)` is `" 1234.5"`. What `String(format: "%*.*f")` gives, without its cost (a log
    /// line per event).
    public static func fixed(_ units: Int64, decimals: Int, width: Int = 0) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let fraction = String(units % scale)
        var text = "\(units / scale)"
        if decimals > 0 { text += "." + String(repeating: "0", count: decimals - fraction.utf8.count) + fraction }
        let padding = width - text.utf8.count
        return padding > 0 ? String(repeating: " ", count: padding) + text : text
    }
}
