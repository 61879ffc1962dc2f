import Foundation

/// A file that was read into memory: both its bytes and its path are available.
public struct LoadedFile: BytesProvider, FileProvider, Codable, Hashable {
    /// Where the file was read from.
    public var path: String
    /// Its contents.
    public var data: Data

    /// Describes a loaded file.
    public init(path: String, data: Data) {
        self.path = path
        self.data = data
    }

    /// The same contents, read from `path`.
    public func withPath(_ path: String) -> LoadedFile {
        LoadedFile(path: path, data: data)
    }

    /// The size, e.g. `2.4 MB`.
    public var summary: String { ByteCountText.format(data.count) }

    /// `file.loaded`.
    public static let kind = "file.loaded"
    /// The layout version `serialized()` writes.
    static let layoutVersion: UInt8 = 1

    /// Version 1: `u8` version, the path (string), the contents (length-prefixed bytes).
    public func serialized() -> Data {
        ResultWriter.payload(version: Self.layoutVersion) { writer in
            writer.append(string: path)
            writer.append(lengthPrefixed: data)
        }
    }

    /// Reads what `serialized()` writes.
    /// - Throws: `ResultCodingError`.
    public init(serialized payload: Data) throws {
        self = try ResultReader.read(payload, kind: Self.kind, version: Self.layoutVersion) { reader in
            LoadedFile(path: try reader.readString("path"), data: try reader.readLengthPrefixed("data"))
        }
    }
}
