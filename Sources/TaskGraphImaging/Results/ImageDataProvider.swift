import Foundation
import TaskGraphCore

/// A result that can hand over a decoded image.
public protocol ImageDataProvider: OperationResult {
    /// The image. Computed on demand where that is costly (e.g. decoding bytes).
    var image: Image { get async throws }
}

/// A result whose image is already decoded: handing it over costs nothing, and it knows the
/// format to encode it in when none is asked for (the one it was decoded from, so a JPEG stays a
/// JPEG). Image consumers take it before bytes, which they would have to decode.
public protocol DecodedImageProvider: ImageDataProvider {
    /// The pixels, already in memory.
    var decodedImage: Image { get }
    /// The format to encode them in when no other is asked for.
    var format: ImageFormat { get }
}
