import Foundation
import TaskGraphCore

/// A result type of this program's own: the mean brightness of an image, 0 (black) to 255.
struct Brightness: OperationResult {
    /// The mean of every channel of every pixel.
    var mean: Double

    var summary: String { String(format: "brightness %.1f", mean) }

    /// The layout's stable name (docs/results.md): a store reads it back by this kind.
    static let kind = "example.brightness"

    /// Eight bytes: the mean's IEEE 754 bit pattern, little-endian.
    func serialized() async throws -> Data {
        withUnsafeBytes(of: mean.bitPattern.littleEndian) { Data($0) }
    }

    init(mean: Double) {
        self.mean = mean
    }

    init(serialized payload: Data) throws {
        guard payload.count == 8 else {
            throw ResultCodingError.invalidValue(
                subject: Self.kind, field: "mean", reason: "\(payload.count) bytes, not 8")
        }
        let bits = payload.reduce(UInt64(0)) { $0 >> 8 | UInt64($1) << 56 }
        mean = Double(bitPattern: bits)
    }
}
