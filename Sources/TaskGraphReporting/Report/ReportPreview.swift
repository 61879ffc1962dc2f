import Foundation

/// A small picture of what an image operation produced, for the report's previews: a JPEG the
/// caller made (the report links no image library), embedded in the page as a data URI.
public struct ReportPreview: Sendable, Hashable {
    /// The operation whose output it shows.
    public var operation: String
    /// The JPEG bytes.
    public var jpeg: Data

    /// A preview of `operation`'s output.
    public init(operation: String, jpeg: Data) {
        self.operation = operation
        self.jpeg = jpeg
    }
}
