import Foundation
import TaskGraphCore

/// The body of a download, with the URL it came from (without credentials) and what the server
/// said to revalidate it with.
public struct DownloadedData: BytesProvider, RevalidatableResult, Codable, Hashable {
    /// The URL, credentials removed.
    public var url: String
    /// The body.
    public var data: Data
    /// The response's `etag` and `last-modified` headers, when it had them (an http or https
    /// URL).
    ///
    /// Not part of the value: left out of the serialised form, the digest and equality, so a
    /// server that changes its `ETag` but not the body changes nothing downstream. A store keeps
    /// them in the action record (`ActionRecord.validators`) instead.
    public var validators: [String: String]

    /// Describes a downloaded body; `url` must already be free of credentials.
    public init(url: String, data: Data, validators: [String: String] = [:]) {
        self.url = url
        self.data = data
        self.validators = validators
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

    /// Reads what `serialized()` writes; `validators` are empty.
    /// - Throws: `ResultCodingError`.
    public init(serialized payload: Data) throws {
        self = try ResultReader.read(payload, kind: Self.kind, version: Self.layoutVersion) { reader in
            DownloadedData(url: try reader.readString("url"), data: try reader.readLengthPrefixed("data"))
        }
    }
}

extension DownloadedData {
    /// Equal URLs and bodies; the validators are not compared.
    public static func == (lhs: DownloadedData, rhs: DownloadedData) -> Bool {
        lhs.url == rhs.url && lhs.data == rhs.data
    }

    /// Hashes the URL and the body.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(data)
    }
}
