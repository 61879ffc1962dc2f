import Foundation
import TaskGraphCore

/// The file keeping a pipeline's last key components, by operation id (`pipelines/<sha256 of
/// the pipeline's path>`): what `--explain` compares a new key with to say what changed.
///
/// Encoding: `TGKC`, version 1, the pipeline's path (string), a `u32` count of operations, then
/// for each its id (string) and its components (a `u32` count of name and value strings).
enum ComponentMemory {
    static let magic: [UInt8] = Array("TGKC".utf8)
    static let version: UInt8 = 1

    /// The encoding of `components` for the pipeline at `pipeline`; ids sorted.
    static func encode(_ components: [String: KeyComponents], pipeline: String) -> Data {
        var writer = ResultWriter(capacity: 64 + components.count * 512)
        writer.append(raw: magic)
        writer.append(version)
        writer.append(string: pipeline)
        writer.append(count: components.count)
        for (id, key) in components.sorted(by: { $0.key < $1.key }) {
            writer.append(string: id)
            ActionRecordCoder.append(key, to: &writer)
        }
        return writer.data
    }

    /// The components in `data` if it is this version's encoding for `pipeline`, else none.
    static func decode(_ data: Data, pipeline: String) -> [String: KeyComponents] {
        data.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            do {
                try reader.header(magic, version: version)
                guard try reader.string() == pipeline else { return [:] }
                let count = try reader.count(minimumItemSize: 12)
                var components: [String: KeyComponents] = [:]
                components.reserveCapacity(count)
                for _ in 0..<count {
                    let id = try reader.string()
                    components[id] = try ActionRecordCoder.readComponents(&reader)
                }
                try reader.finish()
                return components
            } catch {
                return [:]
            }
        }
    }
}
