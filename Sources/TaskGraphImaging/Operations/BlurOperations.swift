import TaskGraphCore

/// The blur filters: `blur` and `tilt-shift`.
enum BlurOperations {
    /// The σ parameter both filters take.
    private static func sigma(default value: Double) -> ParameterSpec {
        ParameterSpec("blur_radius", .number(0.5...100), default: .number(value), "Gaussian σ in pixels.")
    }

    /// `blur`: a Gaussian blur of σ `blur_radius` (three box passes per direction).
    static let blur = ImageFilter.type(
        name: "blur", summary: "Blurs an image (Gaussian, σ in pixels; three box passes, any σ at the same cost).",
        cacheVersion: 1,
        parameters: [sigma(default: 2)],
        makeTransform: { parameters in
            let sigma = parameters.number("blur_radius") ?? 2
            return { image in try await GaussianBlur.apply(to: consume image, sigma: sigma) }
        })

    /// `tilt-shift`: sharp horizontal band, blur growing above and below it.
    static let tiltShift = ImageFilter.type(
        name: "tilt-shift",
        summary: "Miniature effect: a sharp horizontal band, Gaussian blur above and below it.",
        cacheVersion: 1,
        parameters: [
            sigma(default: 7),
            ParameterSpec(
                "top_focus", .number(0...1), default: .number(0.4), "Top of the sharp band (fraction of the height)."),
            ParameterSpec(
                "bottom_focus", .number(0...1), default: .number(0.6),
                "Bottom of the sharp band (fraction of the height)."),
            ParameterSpec(
                "falloff", .number(0...1), default: .number(0.2),
                "Height of the sharp-to-blurred transitions (fraction of the height)."),
            ParameterSpec(
                "falloff_curve", .choice(TiltShiftMask.Curve.allCases.map(\.rawValue)), default: .string("smoothstep"),
                "Shape of the transitions."),
        ],
        makeTransform: { parameters in
            let sigma = parameters.number("blur_radius") ?? 7
            let mask = TiltShiftMask(
                top: parameters.number("top_focus") ?? 0.4, bottom: parameters.number("bottom_focus") ?? 0.6,
                falloff: parameters.number("falloff") ?? 0.2,
                curve: parameters.string("falloff_curve").flatMap(TiltShiftMask.Curve.init) ?? .smoothstep)
            guard mask.top <= mask.bottom else {
                throw ImageError.focusBandInverted(top: mask.top, bottom: mask.bottom)
            }
            return { image in
                let weights = mask.rowWeights(height: image.height)
                return try await GaussianBlur.apply(to: consume image, sigma: sigma, rowWeights: weights)
            }
        })
}
