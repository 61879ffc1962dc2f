import Foundation

/// The store's size as the last full collection measured it (`usage`: the bytes and the time,
/// in seconds since 1970, as text), which `evictIfNeeded` adds each run's writes to instead of
/// listing the store after every run. Two processes adding at once may lose one's bytes; the
/// estimate is measured again daily.
struct StoreUsage {
    var bytes: Int64
    var measured: Double

    /// The saved measurement, or nil when there is none or it is unreadable.
    static func read(_ layout: StoreLayout) -> StoreUsage? {
        guard let data = (try? StoreIO.read(layout.usage, layout)) ?? nil else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let bytes = Int64(fields[0]), let measured = Double(fields[1]) else { return nil }
        return StoreUsage(bytes: bytes, measured: measured)
    }

    /// Saves it, flushed unless `flush` is false (an estimate a crash damaged does not read, and
    /// the store is measured again).
    func write(_ layout: StoreLayout, flush: Bool = true) throws(StoreError) {
        try StoreIO.writeFile(Data("\(bytes) \(measured)\n".utf8), to: layout.usage, layout, flush: flush)
    }
}
