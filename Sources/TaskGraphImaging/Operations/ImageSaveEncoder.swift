import Foundation
import TaskGraphCore

/// What `save` writes for images: bytes as they are, images encoded in the format the path or
/// `format` names.
public struct ImageSaveEncoder: SaveEncoder {
    /// The encoder for `save` in a registry with imaging.
    public init() {}

    public var formatNames: [String] { ImageFormat.allCases.map(\.rawValue) }

    public var consumes: [DataKind] { [.image] }

    /// The bytes to write for the input of `context`.
    ///
    /// The input is found as every image consumer finds it (`TaskContext.imageInput()`). A
    /// decoded image (or any image provider that is not bytes) is encoded as `format`, else as
    /// the format of `path`'s extension, else in the format it was decoded from (PNG for a
    /// provider that does not say). Bytes are written unchanged when neither `format` nor the
    /// extension names an image format, or they are an image in that format already; an image
    /// in another format is converted, and other bytes are refused (`notAnImageToSave`).
    /// - Throws: `ImageError` from the codecs, `OperationError.missingInput`.
    public func data(for context: TaskContext, path: String, format formatName: String?, quality: Int?) async throws
        -> Data?
    {
        let format = formatName.flatMap(ImageFormat.init(rawValue:))
        let quality = quality ?? ImageCodec.defaultQuality
        let chosen = format ?? ImageFormat(pathExtension: path)
        switch context.imageInput() {
        case .decoded(let decoded):
            return try await ImageCodec.encode(decoded.decodedImage, as: chosen ?? decoded.format, quality: quality)
        case .bytes(let bytes):
            let data = try await bytes.data
            guard let chosen else { return data }
            guard let current = ImageFormat.sniff(data) else {
                throw ImageError.notAnImageToSave(format: chosen, byteCount: data.count)
            }
            guard current != chosen else { return data }
            return try await ImageCodec.encode(try await ImageCodec.decode(data), as: chosen, quality: quality)
        case .provider(let provider):
            return try await ImageCodec.encode(try await provider.image, as: chosen ?? .png, quality: quality)
        case nil:
            throw OperationError.missingInput(node: context.id, expected: "bytes or an image")
        }
    }
}
