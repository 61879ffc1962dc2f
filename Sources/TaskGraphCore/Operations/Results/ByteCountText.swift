import Foundation

/// Formats byte counts for people: `512 B`, `2.4 kB`, `13.0 MB`, `1.2 GB` (decimal units).
public enum ByteCountText {
    /// The count in the largest unit that keeps the number at least 1.
    public static func format<Count: BinaryInteger>(_ count: Count) -> String {
        let bytes = Double(count)
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = bytes
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(Int(bytes)) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}
