import TaskGraphCore

/// The action of every image filter: one image in (decoded, or encoded bytes decoded here),
/// one decoded image out, in the format of the input so `save` and bytes consumers keep it.
struct ImageFilter: BuiltInAction {
    /// The pixel transformation. It consumes its input so that an image decoded for this filter
    /// alone can be overwritten in place.
    typealias Transform = @Sendable (consuming Image) async throws -> Image

    /// The size a resizing filter makes of an image of the given size.
    typealias ResizeTarget = @Sendable (_ width: Int, _ height: Int) -> (width: Int, height: Int)

    /// `max_pixels`, accepted by every filter.
    static let maxPixelsParameter = ParameterSpec(
        "max_pixels", .integer(1...Int.max), default: .integer(ImageCodec.defaultMaxPixels),
        "Refuse images with more pixels than this, checked before decoding.")

    /// Declares a filter type: it takes an image or encoded bytes and produces an image.
    /// - Parameters:
    ///   - cacheVersion: the filter's implementation version (`CacheableAction.cacheVersion`):
    ///     bump it when the same image and parameters give other pixels.
    ///   - makeTransform: builds the transformation from the checked parameters; what it throws
    ///     is reported by `validate`.
    ///   - makeResizeTarget: for a filter that resizes and does nothing else (`resize`), its
    ///     target size from the parameters: encoded input is then decoded straight to about that
    ///     size where the codec can (`ImageCodec.decode(_:maxPixels:forSize:)`) and area-averaged
    ///     to it, instead of being decoded whole and given to the transformation.
    static func type(
        name: String, summary: String, cacheVersion: Int, parameters: [ParameterSpec],
        makeResizeTarget: (@Sendable (Parameters) throws -> ResizeTarget)? = nil,
        makeTransform: @escaping @Sendable (Parameters) throws -> Transform
    ) -> OperationType {
        OperationType(
            name: name, summary: summary, parameters: parameters + [maxPixelsParameter],
            input: .one(of: [.image, .bytes]), produces: [.image],
            makeAction: { setup in
                ImageFilter(
                    cacheVersion: cacheVersion,
                    maxPixels: setup.parameters.integer("max_pixels") ?? ImageCodec.defaultMaxPixels,
                    resizeTarget: try makeResizeTarget?(setup.parameters),
                    transform: try makeTransform(setup.parameters))
            })
    }

    let cacheVersion: Int
    let maxPixels: Int
    let resizeTarget: ResizeTarget?
    let transform: Transform

    /// Yes: its result is a function of its input's pixels and its parameters.
    var isRecomputable: Bool { true }

    func run(in context: TaskContext) async throws -> any OperationResult {
        if let resizeTarget, case .bytes(let bytes)? = context.imageInput() {
            let data = try await bytes.data
            // The input is within `maxPixels` (checked before decoding); the result is checked
            // before it is allocated.
            let (image, size) = try await ImageCodec.decode(data, maxPixels: maxPixels, forSize: resizeTarget)
            try ImageCodec.checkResultLimit(width: size.width, height: size.height, limit: maxPixels)
            return DecodedImage(
                try await ResizeKernel.resized(image, to: size), format: ImageFormat.sniff(data) ?? .png)
        }
        let (image, format) = try await context.inputImage(maxPixels: maxPixels)
        if let resizeTarget {
            let size = resizeTarget(image.width, image.height)
            try ImageCodec.checkResultLimit(width: size.width, height: size.height, limit: maxPixels)
        }
        return DecodedImage(try await transform(consume image), format: format)
    }
}
