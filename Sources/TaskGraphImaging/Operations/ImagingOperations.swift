import TaskGraphCore

/// The imaging operation types, for a registry to assemble.
public enum ImagingOperations {
    /// The filters and the contact sheet.
    public static let types: [OperationType] = [
        ToneOperations.sepia, ToneOperations.grayscale, BlurOperations.blur, BlurOperations.tiltShift,
        GeometryOperations.resize, GeometryOperations.crop, ContactSheetOperation.type,
    ]

    /// What `save` uses to write images.
    public static let saveEncoder: any SaveEncoder = ImageSaveEncoder()
}
