import Foundation
import TaskGraphCore

/// A decoded image: 8-bit sRGB samples, interleaved RGB or RGBA, rows stored top to bottom with
/// no padding (`width * channels` bytes per row). Alpha, when present, is not premultiplied.
///
/// Immutable and cheap to pass between operations: the pixel memory is shared, never copied.
/// A kernel given the only reference to an image (a `consuming` parameter, e.g. an image it just
/// decoded) writes its result over the same memory instead of allocating more; see
/// `storageForResult()`.
public struct Image: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Samples per pixel: 3 (RGB) or 4 (RGBA).
    public let channels: Int
    /// The pixel memory, written by the codec or kernel that made the image (and, when no other
    /// image shares it, overwritten by a kernel whose result replaces this image).
    private(set) var storage: PixelStorage<UInt8>

    /// An image of `pixels` (copied).
    /// - Precondition: `channels` is 3 or 4 and `pixels` holds exactly `width * height * channels`.
    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        let storage = PixelStorage<UInt8>(count: pixels.count)
        pixels.withUnsafeBufferPointer { storage.base.initialize(from: $0.baseAddress!, count: $0.count) }
        self.init(width: width, height: height, channels: channels, storage: storage)
    }

    /// An image of one color; `color` has 3 or 4 samples.
    public init(width: Int, height: Int, color: [UInt8]) {
        let storage = PixelStorage<UInt8>(count: width * height * color.count)
        for pixel in 0..<(width * height) {
            for (channel, sample) in color.enumerated() { storage.base[pixel * color.count + channel] = sample }
        }
        self.init(width: width, height: height, channels: color.count, storage: storage)
    }

    /// An image of the `width * height * channels` samples of `bytes` (copied), or nil when
    /// the sizes are not those of an image or `bytes` holds another number of samples.
    init?(width: Int, height: Int, channels: Int, copying bytes: Data) {
        guard channels == 3 || channels == 4, width > 0, height > 0 else { return nil }
        let (area, areaOverflow) = width.multipliedReportingOverflow(by: height)
        let (count, countOverflow) = area.multipliedReportingOverflow(by: channels)
        guard !areaOverflow, !countOverflow, bytes.count == count else { return nil }
        let storage = PixelStorage<UInt8>(count: count)
        _ = bytes.copyBytes(to: UnsafeMutableBufferPointer(start: storage.base, count: count))
        self.init(width: width, height: height, channels: channels, storage: storage)
    }

    /// Wraps filled storage.
    init(width: Int, height: Int, channels: Int, storage: PixelStorage<UInt8>) {
        precondition(channels == 3 || channels == 4, "channels must be 3 or 4")
        precondition(width > 0 && height > 0 && storage.count == width * height * channels)
        self.width = width
        self.height = height
        self.channels = channels
        self.storage = storage
    }

    /// Memory for a result of this image's size that replaces it: this image's own pixel memory
    /// when no other `Image` refers to it (the kernel then overwrites its input as it goes), else
    /// new memory. Kernels take their input `consuming` so the caller's last use hands it over.
    mutating func storageForResult() -> PixelStorage<UInt8> {
        isKnownUniquelyReferenced(&storage) ? storage : PixelStorage<UInt8>(count: storage.count)
    }

    /// A copy of the samples, row after row.
    public var pixels: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

    /// Calls `body` with the samples, row after row, as raw bytes.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(storage) {
            try body(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
        }
    }

    /// Bytes per row.
    public var rowStride: Int { width * channels }

    /// The samples of the pixel at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        let start = (y * width + x) * channels
        return Array(UnsafeBufferPointer(start: storage.base + start, count: channels))
    }

    /// `1200×800 RGB`.
    public var summary: String { "\(width)×\(height) \(channels == 4 ? "RGBA" : "RGB")" }

    public static func == (lhs: Image, rhs: Image) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.channels == rhs.channels
            && (lhs.storage === rhs.storage || memcmp(lhs.storage.base, rhs.storage.base, lhs.storage.count) == 0)
    }
}
