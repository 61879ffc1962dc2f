import Foundation

/// A file written by an operation.
public struct WrittenFile: FileProvider, Codable, Hashable {
    /// Where the file is.
    public var path: String
    /// How many bytes were written.
    public var byteCount: Int

    /// Describes a written file.
    public init(path: String, byteCount: Int) {
        self.path = path
        self.byteCount = byteCount
    }

    /// The same file, at `path`.
    public func withPath(_ path: String) -> WrittenFile {
        WrittenFile(path: path, byteCount: byteCount)
    }

    /// The path and size.
    public var summary: String { "\(path) (\(ByteCountText.format(byteCount)))" }

    /// `file.written`.
    public static let kind = "file.written"
    /// The layout version `serialized()` writes.
    static let layoutVersion: UInt8 = 1

    /// Version 1: `u8` version, the path (string), the byte count (`u64`).
    /// - Throws: `ResultCodingError.unrepresentable` for a negative byte count.
    public func serialized() throws -> Data {
        guard byteCount >= 0 else {
            throw ResultCodingError.unrepresentable(
                subject: "'\(Self.kind)' result", reason: "byte count \(byteCount) is negative")
        }
        return ResultWriter.payload(version: Self.layoutVersion) { writer in
            writer.append(string: path)
            writer.append(UInt64(byteCount))
        }
    }

    /// Reads what `serialized()` writes.
    /// - Throws: `ResultCodingError`.
    public init(serialized payload: Data) throws {
        self = try ResultReader.read(payload, kind: Self.kind, version: Self.layoutVersion) { reader in
            let path = try reader.readString("path")
            let byteCount = try reader.readUInt64("byte count")
            guard let count = Int(exactly: byteCount) else {
                throw ResultCodingError.invalidValue(
                    subject: reader.subject, field: "byte count", reason: "\(byteCount) is too large")
            }
            return WrittenFile(path: path, byteCount: count)
        }
    }
}
