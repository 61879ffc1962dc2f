import Foundation
import TaskGraphCore

/// Minimal JSON writing for event streams and traces: fast, no intermediate objects.
enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                result += String(format: "\\u%04x", control.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `texts` as a JSON array of strings.
    static func array(_ texts: [String]) -> String {
        "[" + texts.map(quoted).joined(separator: ",") + "]"
    }

    /// Seconds with microsecond precision, e.g. `1.234567`.
    static func seconds(_ duration: Duration) -> String {
        let microseconds = microseconds(duration)
        return (microseconds < 0 ? "-" : "") + DurationText.fixed(abs(microseconds), decimals: 6)
    }

    /// The duration that `seconds` wrote as `value` (microsecond precision).
    static func duration(seconds value: Double) -> Duration {
        .microseconds(Int64((value * 1_000_000).rounded()))
    }

    /// Whole microseconds, as Chrome traces count time.
    static func microseconds(_ duration: Duration) -> Int64 {
        let components = duration.components
        return components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }

    /// An RFC 3339 UTC timestamp with milliseconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
