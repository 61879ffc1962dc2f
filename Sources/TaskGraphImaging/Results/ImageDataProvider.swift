import Foundation
import TaskGraphCore

/// A result that can hand over a decoded image.
public protocol ImageDataProvider: Artifact {
    /// The image. Computed on demand where that is costly (e.g. decoding bytes).
    var image: Image { get async throws }
}

/// Encoded image bytes (JPEG or PNG): a bytes provider that also decodes on demand, so a filter
/// can follow `load`, a download or a decryption without an explicit decode step.
public struct EncodedImage: BytesProvider, ImageDataProvider {
    /// The encoded bytes.
    public var data: Data
    /// Images with more pixels are refused before decoding.
    public var maxPixels: Int

    /// Wraps `data`.
    public init(_ data: Data, maxPixels: Int = ImageCodec.defaultMaxPixels) {
        self.data = data
        self.maxPixels = maxPixels
    }

    /// The decoded image, upright per its EXIF orientation.
    public var image: Image {
        get async throws { try await ImageCodec.decode(data, maxPixels: maxPixels) }
    }

    /// The format its signature names, if any.
    public var format: ImageFormat? { ImageFormat.sniff(data) }

    /// `JPEG, 2.4 MB`.
    public var summary: String {
        "\(format?.displayName ?? "unknown format"), \(ByteCountText.format(data.count))"
    }
}

/// A decoded image, the result of a filter. It also provides bytes, encoded on demand in
/// `format` (the format it was decoded from, so a JPEG stays a JPEG).
public struct DecodedImage: ImageDataProvider, BytesProvider {
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

    /// `1200×800 RGB`.
    public var summary: String { image.summary }
}
