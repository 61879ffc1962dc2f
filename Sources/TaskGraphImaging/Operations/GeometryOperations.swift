import TaskGraphCore

/// The geometry filters: `resize` and `crop`.
enum GeometryOperations {
    /// `resize`: scales with the aspect ratio kept. JPEG bytes it shrinks are decoded at the
    /// smallest of 1/2, 1/4 and 1/8 scale (in the DCT domain) that is still at least the result's
    /// size, then area-averaged (version 2; version 1 decoded every JPEG whole).
    static let resize = ImageFilter.type(
        name: "resize",
        summary: "Scales an image, aspect ratio kept (area averaging when shrinking, linear when enlarging).",
        cacheVersion: 2,
        parameters: [
            ParameterSpec(
                "width", .integer(1...100_000), optional: true, "Target width in pixels (with height: fit inside both)."
            ),
            ParameterSpec("height", .integer(1...100_000), optional: true, "Target height in pixels."),
            ParameterSpec(
                "max_side", .integer(1...100_000), optional: true,
                "Shrink so the longer side is at most this; never enlarges."),
        ],
        makeResizeTarget: resizeTarget,
        makeTransform: { parameters in
            let target = try resizeTarget(parameters)
            return { image in try await ResizeKernel.resized(image, to: target(image.width, image.height)) }
        })

    /// `resize`'s result size for an image of a given size.
    private static func resizeTarget(_ parameters: Parameters) throws -> ImageFilter.ResizeTarget {
        let (width, height, maxSide) = (
            parameters.integer("width"), parameters.integer("height"), parameters.integer("max_side")
        )
        guard width != nil || height != nil || maxSide != nil else { throw ImageError.resizeNeedsSize }
        return {
            ResizeKernel.targetSize(
                width: $0, height: $1, requestedWidth: width, requestedHeight: height, maxSide: maxSide)
        }
    }

    /// `crop`: a rectangle of the image.
    static let crop = ImageFilter.type(
        name: "crop", summary: "Cuts out a rectangle of an image.",
        cacheVersion: 1,
        parameters: [
            ParameterSpec("x", .integer(0...100_000), default: .integer(0), "Left edge in pixels."),
            ParameterSpec("y", .integer(0...100_000), default: .integer(0), "Top edge in pixels."),
            ParameterSpec("width", .integer(1...100_000), "Width in pixels."),
            ParameterSpec("height", .integer(1...100_000), "Height in pixels."),
        ],
        makeTransform: { parameters in
            let (x, y) = (parameters.integer("x") ?? 0, parameters.integer("y") ?? 0)
            let (width, height) = (parameters.integer("width") ?? 1, parameters.integer("height") ?? 1)
            return { try PixelKernels.crop($0, x: x, y: y, width: width, height: height) }
        })
}
