import Foundation
import Testing

@testable import TaskGraphReporting

@Suite struct DurationTextTests {
    /// `fixed` writes what `String(format:)` writes for the same value.
    @Test func fixedMatchesPrintf() {
        for units: Int64 in [0, 1, 9, 10, 99, 100, 12_345, 1_000_000, 9_999_999, 123_456_789] {
            #expect(DurationText.fixed(units, decimals: 1, width: 7) == String(format: "%7.1f", Double(units) / 10))
            #expect(DurationText.fixed(units, decimals: 6) == String(format: "%.6f", Double(units) / 1_000_000))
            #expect(DurationText.fixed(units, decimals: 0) == "\(units)")
        }
    }

    @Test func compactDurations() {
        #expect(DurationText.format(.milliseconds(850)) == "850ms")
        #expect(DurationText.format(.milliseconds(12_340)) == "12.3s")
        #expect(DurationText.format(.seconds(245)) == "4m05s")
    }
}
