import TaskGraphCore

/// The color filters: `sepia` and `grayscale`.
enum ToneOperations {
    /// `sepia`: the W3C sepia matrix mixed with the identity by `intensity`.
    static let sepia = ImageFilter.type(
        name: "sepia", summary: "Sepia-tones an image (W3C sepia matrix); alpha untouched.",
        cacheVersion: 1,
        parameters: [
            ParameterSpec("intensity", .number(0...1), default: .number(1), "0 keeps the image, 1 is full sepia.")
        ],
        makeTransform: { parameters in
            let intensity = parameters.number("intensity") ?? 1
            return { image in try await SepiaKernel.apply(to: consume image, intensity: intensity) }
        })

    /// `grayscale`: BT.601 luma in every color channel.
    static let grayscale = ImageFilter.type(
        name: "grayscale", summary: "Converts an image to gray (BT.601 luma); alpha untouched.",
        cacheVersion: 1,
        parameters: [],
        makeTransform: { _ in { image in try await PixelKernels.grayscale(consume image) } })
}
