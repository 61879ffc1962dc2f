import Foundation
import TaskGraphCore

/// An image found among a node's inputs, by protocol, before anything is decoded.
///
/// Every image consumer (the filters, `save`, `contact-sheet`) finds its input this one way:
/// an image already decoded first (`DecodedImageProvider`: no work, and it knows its format),
/// else bytes (`BytesProvider`, decoded by the consumer with its own `max_pixels`), else any
/// other `ImageDataProvider`. Only the absence of such an input is "not found"; a decode failure
/// is an error of the consumer.
public enum ImageInput: Sendable {
    /// An image already decoded.
    case decoded(any DecodedImageProvider)
    /// Bytes, presumably an encoded image.
    case bytes(any BytesProvider)
    /// Another image provider, which decodes on its own terms.
    case provider(any ImageDataProvider)

    /// What `result` offers, in the order above; nil when it is neither an image nor bytes.
    public init?(_ result: any OperationResult) {
        if let decoded = result as? any DecodedImageProvider {
            self = .decoded(decoded)
        } else if let bytes = result as? any BytesProvider {
            self = .bytes(bytes)
        } else if let provider = result as? any ImageDataProvider {
            self = .provider(provider)
        } else {
            return nil
        }
    }

    /// The image, and the format a result made from it should be encoded in: a decoded image's
    /// own format; the format bytes are in; PNG for another provider.
    /// - Parameter maxPixels: bytes holding an image with more pixels are refused before decoding.
    /// - Throws: `ImageError` when bytes do not decode, or what the provider throws.
    public func image(maxPixels: Int) async throws -> (Image, ImageFormat) {
        switch self {
        case .decoded(let decoded):
            return (decoded.decodedImage, decoded.format)
        case .bytes(let bytes):
            let data = try await bytes.data
            return (try await ImageCodec.decode(data, maxPixels: maxPixels), ImageFormat.sniff(data) ?? .png)
        case .provider(let provider):
            return (try await provider.image, .png)
        }
    }
}

extension TaskContext {
    /// The one image input: among the preferred input (or every input when none is named), the
    /// first decoded image, else the first bytes, else the first other image provider; nil when
    /// there is none.
    public func imageInput() -> ImageInput? {
        if let decoded = inputIfPresent((any DecodedImageProvider).self) { return .decoded(decoded) }
        if let bytes = inputIfPresent((any BytesProvider).self) { return .bytes(bytes) }
        if let provider = inputIfPresent((any ImageDataProvider).self) { return .provider(provider) }
        return nil
    }

    /// Every input that is an image or bytes, in dependency order (for fan-in operations).
    public func imageInputs() -> [(id: String, input: ImageInput)] {
        inputs.compactMap { input in ImageInput(input.result).map { (input.id, $0) } }
    }

    /// The one input image, decoded if need be, and the format a result should be encoded in.
    /// - Parameter maxPixels: bytes holding an image with more pixels are refused before decoding.
    /// - Throws: `OperationError.missingInput` when no input is an image or bytes; `ImageError`
    ///   when the bytes do not decode.
    public func inputImage(maxPixels: Int = ImageCodec.defaultMaxPixels) async throws -> (Image, ImageFormat) {
        guard let input = imageInput() else {
            throw OperationError.missingInput(node: id, expected: "ImageDataProvider")
        }
        return try await input.image(maxPixels: maxPixels)
    }

    /// Every input image, decoded if need be, in dependency order, with its input's id and the
    /// format a result made from it should be encoded in. Inputs that are neither images nor
    /// bytes are left out.
    /// - Throws: `OperationError.missingInput` when no input is an image or bytes; `ImageError`
    ///   when some bytes do not decode.
    public func inputImages(maxPixels: Int = ImageCodec.defaultMaxPixels) async throws
        -> [(id: String, image: Image, format: ImageFormat)]
    {
        let found = imageInputs()
        guard !found.isEmpty else {
            throw OperationError.missingInput(node: id, expected: "ImageDataProvider")
        }
        var images: [(id: String, image: Image, format: ImageFormat)] = []
        images.reserveCapacity(found.count)
        for (id, input) in found {
            let (image, format) = try await input.image(maxPixels: maxPixels)
            images.append((id, image, format))
        }
        return images
    }
}
