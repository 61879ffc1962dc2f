import TaskGraphCore

/// The imaging operation types, for a registry to assemble.
public enum ImagingOperations {
    /// The filters and the contact sheet.
    public static let types: [OperationType] = [
        ToneOperations.sepia, ToneOperations.grayscale, BlurOperations.blur, BlurOperations.tiltShift,
        GeometryOperations.resize, GeometryOperations.crop, ContactSheetOperation.type,
    ]

    /// The kinds of the imaging results: `image.encoded`, `image.decoded`.
    public static let resultKinds: [ResultKind] = [ResultKind(EncodedImage.self), ResultKind(DecodedImage.self)]

    /// What `save` uses to write images.
    public static let saveEncoder: any SaveEncoder = ImageSaveEncoder()
}
