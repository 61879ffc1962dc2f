import Foundation

/// Reads sizes as people write them: `5GiB`, `500MB`, `1G`, `1.5 GiB`, `1048576`. As in GNU
/// coreutils, `K`, `M`, `G`, `T` (and `KiB`…`TiB`) are powers of 1024, `KB`, `MB`, `GB`, `TB`
/// powers of 1000; letters in either case.
public enum ByteSize {
    private static let units: [String: Int64] = [
        "": 1, "b": 1,
        "k": 1 << 10, "kib": 1 << 10, "kb": 1_000,
        "m": 1 << 20, "mib": 1 << 20, "mb": 1_000_000,
        "g": 1 << 30, "gib": 1 << 30, "gb": 1_000_000_000,
        "t": 1 << 40, "tib": 1 << 40, "tb": 1_000_000_000_000,
    ]

    /// The number of bytes `text` denotes, rounded down.
    /// - Throws: `StoreError.invalidSize`.
    public static func parse(_ text: String) throws(StoreError) -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard let value = Double(number), value.isFinite, let multiplier = units[unit] else {
            throw .invalidSize(text)
        }
        let bytes = (value * Double(multiplier)).rounded(.down)
        guard bytes < 0x1p63 else { throw .invalidSize(text) }
        return Int64(bytes)
    }
}
