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
}
