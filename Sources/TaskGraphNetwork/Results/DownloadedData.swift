import Foundation
import TaskGraphCore

/// The body of a download, with the URL it came from (without credentials).
public struct DownloadedData: BytesProvider, Codable, Hashable {
    /// The URL, credentials removed.
    public var url: String
    /// The body.
    public var data: Data

    /// Describes a downloaded body; `url` must already be free of credentials.
    public init(url: String, data: Data) {
        self.url = url
        self.data = data
    }

    /// The size, e.g. `2.4 MB`.
    public var summary: String { ByteCountText.format(data.count) }

    /// `network.download`.
    public static let kind = "network.download"
    /// The layout version `serialized()` writes.
    static let layoutVersion: UInt8 = 1

    /// Version 1: `u8` version, the URL (string), the body (length-prefixed bytes).
    public func serialized() -> Data {
        ResultWriter.payload(version: Self.layoutVersion) { writer in
            writer.append(string: url)
            writer.append(lengthPrefixed: data)
        }
    }

    /// Reads what `serialized()` writes.
    /// - Throws: `ResultCodingError`.
    public init(serialized payload: Data) throws {
        self = try ResultReader.read(payload, kind: Self.kind, version: Self.layoutVersion) { reader in
            DownloadedData(url: try reader.readString("url"), data: try reader.readLengthPrefixed("data"))
        }
    }
}
