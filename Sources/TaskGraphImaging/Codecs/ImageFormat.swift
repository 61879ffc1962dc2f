import Foundation
import TaskGraphCore

/// An encoded image format taskgraph reads and writes.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg
    case png

    /// `JPEG` or `PNG`, for messages.
    public var displayName: String { rawValue.uppercased() }

    /// The format whose signature `data` starts with, if any.
    public static func sniff(_ data: Data) -> ImageFormat? {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        return nil
    }

    /// The format a file name's extension names (`.jpg`, `.jpeg`, `.png`, any case), if any.
    public init?(pathExtension path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        default: return nil
        }
    }
}
