import Foundation
import TaskGraphCore

/// A decoded image, the result of a filter. It also provides bytes, encoded on demand in
/// `format` (the format it was decoded from, so a JPEG stays a JPEG).
///
/// It serialises losslessly, as its pixels behind a 16-byte header (docs/results.md,
/// `image.decoded`); `Codable` writes that same payload.
public struct DecodedImage: DecodedImageProvider, BytesProvider, PayloadPartsProvider, Equatable, Codable {
    /// The pixels.
    public var image: Image
    /// The format used when a bytes consumer asks for `data`.
    public var format: ImageFormat
    /// The JPEG quality used then.
    public var quality: Int

    /// Wraps `image`.
    public init(_ image: Image, format: ImageFormat, quality: Int = ImageCodec.defaultQuality) {
        self.image = image
        self.format = format
        self.quality = quality
    }

    /// The image encoded as `format`.
    public var data: Data {
        get async throws { try await ImageCodec.encode(image, as: format, quality: quality) }
    }

    /// The pixels, already decoded.
    public var decodedImage: Image { image }

    /// `1200×800 RGB`.
    public var summary: String { image.summary }

    /// `image.decoded`.
    public static let kind = "image.decoded"
    /// The first bytes of the payload: `TGIM`.
    static let magic: [UInt8] = Array("TGIM".utf8)
    /// The layout version `serialized()` writes.
    static let layoutVersion: UInt8 = 1
    /// The bytes before the pixels.
    static let headerCount = 16

    /// The header (magic, version, channels, format, quality, width, height) then the samples,
    /// row after row, as `Image` holds them.
    /// - Throws: `ResultCodingError.unrepresentable` for a quality outside 1...100 or a side
    ///   longer than 2³² − 1 pixels; `CancellationError`.
    public func serialized() async throws -> Data {
        try Task.checkCancellation()
        return try payload()
    }

    /// The SHA-256 of the serialised result, hashed straight from the pixel memory (no copy)
    /// in slices, checking for cancellation and yielding between them.
    public var digest: ContentDigest {
        get async throws {
            let header = try self.header()
            let pixelCount = image.height * image.rowStride
            var hasher = try ContentHasher(resultKind: Self.kind, payloadCount: header.count + pixelCount)
            hasher.update(header)
            try await hasher.update(count: pixelCount) { range, hasher in
                image.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[range])) }
            }
            return hasher.finalize()
        }
    }

    /// The header and the samples.
    public var payloadByteCount: Int? { Self.headerCount + image.height * image.rowStride }

    /// The header, then the samples where they lie (not copied).
    /// - Throws: what `serialized()` throws for a value its layout cannot hold; what `body` throws.
    public func withPayloadParts<Result>(_ body: ([Data]) throws -> Result) throws -> Result {
        let header = try header()
        return try image.withUnsafeBytes { pixels in
            let samples = pixels.baseAddress.map {
                Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: pixels.count, deallocator: .none)
            }
            return try body([header, samples ?? Data()])
        }
    }

    /// Reads what `serialized()` writes.
    /// - Throws: `ResultCodingError` for another magic or version, a channel count other than 3
    ///   or 4, an unknown format code, a quality outside 1...100, a zero side, or a pixel count
    ///   that does not match the sides.
    public init(serialized payload: Data) throws {
        var reader = ResultReader(payload, kind: Self.kind)
        try reader.readMagic(Self.magic)
        try reader.readVersion(supported: Self.layoutVersion)
        let channels = Int(try reader.readUInt8("channels"))
        let formatCode = try reader.readUInt8("format")
        let quality = Int(try reader.readUInt8("quality"))
        let width = Int(try reader.readUInt32("width"))
        let height = Int(try reader.readUInt32("height"))
        func invalid(_ field: String, _ reason: String) -> ResultCodingError {
            .invalidValue(subject: reader.subject, field: field, reason: reason)
        }
        guard channels == 3 || channels == 4 else {
            throw invalid("channels", "is \(channels), not 3 (RGB) or 4 (RGBA)")
        }
        guard let format = Self.format(code: formatCode) else {
            throw invalid("format", "is \(formatCode), not 1 (JPEG) or 2 (PNG)")
        }
        guard (1...100).contains(quality) else { throw invalid("quality", "is \(quality), not 1 to 100") }
        guard width > 0, height > 0 else { throw invalid("size", "is \(width)×\(height), which has no pixels") }
        let (area, areaOverflow) = UInt64(width).multipliedReportingOverflow(by: UInt64(height))
        let (sampleCount, countOverflow) = area.multipliedReportingOverflow(by: UInt64(channels))
        guard !areaOverflow, !countOverflow else {
            throw invalid("size", "is \(width)×\(height), more samples than a payload can hold")
        }
        let pixels = try reader.read(count: sampleCount, "pixels")
        try reader.finish()
        // The read proved that the payload holds exactly that many samples, so they fit an Int.
        self.init(
            Image(width: width, height: height, channels: channels, copying: pixels)!, format: format, quality: quality)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        try self.init(serialized: try container.decode(Data.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try payload())
    }

    /// The header, then the pixels.
    private func payload() throws -> Data {
        var data = try header()
        data.reserveCapacity(data.count + image.height * image.rowStride)
        image.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }

    /// The 16 bytes before the pixels: `TGIM`, version, channels, format code, quality, width,
    /// height (`u32`, big-endian).
    private func header() throws -> Data {
        func unrepresentable(_ reason: String) -> ResultCodingError {
            .unrepresentable(subject: "'\(Self.kind)' result", reason: reason)
        }
        guard (1...100).contains(quality) else { throw unrepresentable("quality \(quality) is not 1 to 100") }
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height) else {
            throw unrepresentable("\(image.width)×\(image.height) has a side longer than 4294967295 pixels")
        }
        var writer = ResultWriter(capacity: Self.headerCount)
        writer.append(raw: Self.magic)
        writer.append(Self.layoutVersion)
        writer.append(UInt8(image.channels))
        writer.append(Self.code(of: format))
        writer.append(UInt8(quality))
        writer.append(width)
        writer.append(height)
        return writer.data
    }

    /// The format's code in the header: 1 JPEG, 2 PNG.
    private static func code(of format: ImageFormat) -> UInt8 {
        switch format {
        case .jpeg: 1
        case .png: 2
        }
    }

    /// The format of a header code, if it is one.
    private static func format(code: UInt8) -> ImageFormat? {
        ImageFormat.allCases.first { Self.code(of: $0) == code }
    }
}
