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

    /// `stored` (an encoding for `pipeline`, or nil) with `components` in place of those of the
    /// same ids and the other ids' components as they were, byte for byte: a run where little
    /// changed decodes none of the rest. Nil when `stored` holds all of `components` already.
    static func merging(_ components: [String: KeyComponents], into stored: Data?, pipeline: String) -> Data? {
        let old = stored.flatMap { encodedEntries($0, pipeline: pipeline) } ?? [:]
        var new: [String: Data] = [:]
        for (id, key) in components {
            var writer = ResultWriter(capacity: 512)
            ActionRecordCoder.append(key, to: &writer)
            if let range = old[id], let stored, stored[range] == writer.data { continue }
            new[id] = writer.data
        }
        guard !new.isEmpty || stored == nil else { return nil }
        var writer = ResultWriter(capacity: (stored?.count ?? 0) + new.values.reduce(64) { $0 + $1.count + 64 })
        writer.append(raw: magic)
        writer.append(version)
        writer.append(string: pipeline)
        // Ids sorted, so that equal memories are equal files.
        let ids = Set(old.keys).union(new.keys).sorted()
        writer.append(count: ids.count)
        for id in ids {
            writer.append(string: id)
            if let encoded = new[id] {
                writer.append(raw: encoded)
            } else if let range = old[id], let stored {
                writer.append(raw: stored[range])
            }
        }
        return writer.data
    }

    /// The components of an operation id in `data` (this version's encoding for `pipeline`),
    /// decoded when asked for: a run where little changed decodes little.
    static func lookup(_ data: Data, pipeline: String) -> @Sendable (String) -> KeyComponents? {
        let entries = encodedEntries(data, pipeline: pipeline) ?? [:]
        return { id in
            guard let range = entries[id] else { return nil }
            return data[range].withUnsafeBytes { bytes in
                var reader = ByteReader(bytes)
                return try? ActionRecordCoder.readComponents(&reader)
            }
        }
    }

    /// Where each operation's encoded components lie in `data`, by id, if `data` is this
    /// version's encoding for `pipeline`.
    private static func encodedEntries(_ data: Data, pipeline: String) -> [String: Range<Int>]? {
        data.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            do {
                try reader.header(magic, version: version)
                guard try reader.string() == pipeline else { return nil }
                let count = try reader.count(minimumItemSize: 12)
                var entries: [String: Range<Int>] = [:]
                entries.reserveCapacity(count)
                for _ in 0..<count {
                    let id = try reader.string()
                    let start = reader.position
                    for _ in 0..<(try reader.count(minimumItemSize: 16) * 2) { try reader.skipString() }
                    entries[id] = (data.startIndex + start)..<(data.startIndex + reader.position)
                }
                try reader.finish()
                return entries
            } catch {
                return nil
            }
        }
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
