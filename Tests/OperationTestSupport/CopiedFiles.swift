import Foundation
import TaskGraphCore

/// A result of the tests' own that names several files, as a result type added outside the
/// core would: it maps every path it holds (`OperationResult.withPaths(mapped:)`).
public struct CopiedFiles: OperationResult, Hashable {
    /// Where the files are.
    public var paths: [String]

    /// Names `paths`.
    public init(paths: [String]) {
        self.paths = paths
    }

    public var summary: String { "\(paths.count) files" }

    public static let kind = "test.copied-files"

    /// Version 1: `u8` version, the paths (strings) one after another.
    public func serialized() -> Data {
        ResultWriter.payload(version: 1) { writer in
            for path in paths { writer.append(string: path) }
        }
    }

    public init(serialized payload: Data) throws {
        self = try ResultReader.read(payload, kind: Self.kind, version: 1) { reader in
            var paths: [String] = []
            while reader.remaining > 0 { paths.append(try reader.readString("path")) }
            return CopiedFiles(paths: paths)
        }
    }

    public func withPaths(mapped transform: (String) throws -> String) rethrows -> CopiedFiles {
        CopiedFiles(paths: try paths.map(transform))
    }
}
