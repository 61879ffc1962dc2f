import TaskGraphCore

/// Why an image could not be decoded, encoded or processed.
public enum ImageError: Error, Equatable, Sendable {
    /// The bytes start with no signature taskgraph can decode.
    case unknownFormat(byteCount: Int)
    /// `save` was to write `format` (by its `format` or the path's extension) from bytes that
    /// are no image.
    case notAnImageToSave(format: ImageFormat, byteCount: Int)
    /// The codec refused the data; `message` is libjpeg's or libpng's own.
    case decodeFailed(format: ImageFormat, message: String)
    /// The codec could not encode the image.
    case encodeFailed(format: ImageFormat, message: String)
    /// The image has more pixels than the operation allows (checked before allocating).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The operation's result would have more pixels than it allows (checked before allocating).
    case resultTooLarge(width: Int, height: Int, limit: Int)
    /// A CMYK or YCCK JPEG, which taskgraph does not convert.
    case cmykNotSupported
    /// A crop rectangle that does not lie inside the image.
    case cropOutside(x: Int, y: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int)
    /// A resize with none of width, height or max_side.
    case resizeNeedsSize
    /// A tilt-shift whose sharp band has its top below its bottom.
    case focusBandInverted(top: Double, bottom: Double)
}

extension ImageError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownFormat(let byteCount):
            byteCount == 0 ? "not an image: the data is empty" : "not a JPEG or PNG image (\(byteCount) bytes)"
        case .notAnImageToSave(let format, let byteCount):
            "the input is not a JPEG or PNG image (\(byteCount) bytes), so it cannot be saved as "
                + "\(format.displayName); "
                + "save it under a path whose extension names no image format"
        case .decodeFailed(let format, let message):
            "cannot decode \(format.displayName): \(message)"
        case .encodeFailed(let format, let message):
            "cannot encode \(format.displayName): \(message)"
        case .tooManyPixels(let width, let height, let limit):
            "image is \(width)×\(height) (\(width * height) pixels), more than max_pixels \(limit)"
        case .resultTooLarge(let width, let height, let limit):
            "the result would be \(width)×\(height) (\(width * height) pixels), more than max_pixels \(limit)"
        case .cmykNotSupported:
            "cannot decode JPEG: CMYK images are not supported; convert to RGB first"
        case .cropOutside(let x, let y, let width, let height, let imageWidth, let imageHeight):
            "crop \(width)×\(height) at (\(x), \(y)) does not fit inside the \(imageWidth)×\(imageHeight) image"
        case .resizeNeedsSize:
            "resize needs 'width', 'height' or 'max_side'"
        case .focusBandInverted(let top, let bottom):
            "'top_focus' (\(top)) must not be greater than 'bottom_focus' (\(bottom))"
        }
    }
}
