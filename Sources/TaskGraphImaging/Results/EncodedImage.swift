import Foundation
import TaskGraphCore

/// Encoded image bytes (JPEG or PNG): a bytes provider that also decodes on demand, so a filter
/// can follow `load`, a download or a decryption without an explicit decode step.
///
/// Its value is its bytes: `maxPixels` is a limit on decoding, not content, so it is neither
/// compared, hashed nor serialised (a value read back has the default limit).
public struct EncodedImage: BytesProvider, ImageDataProvider, Hashable, Codable {
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

    /// `image.encoded`.
    public static let kind = "image.encoded"

    /// The encoded bytes themselves.
    public func serialized() -> Data { data }

    /// Takes the payload as the encoded bytes (they are decoded only when the image is asked for).
    public init(serialized payload: Data) {
        self.init(payload)
    }

    /// Equal bytes.
    public static func == (lhs: EncodedImage, rhs: EncodedImage) -> Bool {
        lhs.data == rhs.data
    }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(data)
    }
}
