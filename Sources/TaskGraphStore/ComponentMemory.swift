import Foundation
import TaskGraphCore

/// The file keeping a pipeline's last key components, by operation id (`pipelines/<sha256 of
/// the pipeline's path>`): what `--explain` compares a new key with to say what changed.
///
/// Encoding: `TGKC`, version 2, the pipeline's path (string), then one or more batches, each a
/// `u64` length and that many bytes: a `u32` count of operations, then for each its id (string)
/// and its components (a `u32` count of name and value strings). A later batch's components of
/// an id replace an earlier one's. A run where a few operations changed appends one batch of
/// those (a single `write` with `O_APPEND`), instead of rewriting every operation's components;
/// the file is rewritten as one batch when less than half of it is still current. Reading stops
/// at a batch that is cut short or does not parse (an append cut by a crash): the batches
/// before it count.
enum ComponentMemory {
    static let magic: [UInt8] = Array("TGKC".utf8)
    static let version: UInt8 = 2

    /// A memory as read: its bytes, and where each operation's latest components lie in them.
    struct Loaded: Sendable {
        /// The file's bytes.
        let data: Data
        /// The encoded components of each operation id (its latest batch's), in `data`.
        let entries: [String: Range<Int>]
        /// How many leading bytes of `data` parsed: fewer than all after a cut-short append.
        let parsedBytes: Int

        /// The bytes of `data` still current: every id's latest components, with its id.
        var currentBytes: Int {
            entries.reduce(0) { $0 + $1.key.utf8.count + 8 + $1.value.count }
        }

        /// The components of `id`, decoded.
        func components(of id: String) -> KeyComponents? {
            guard let range = entries[id] else { return nil }
            return data[range].withUnsafeBytes { bytes in
                var reader = ByteReader(bytes)
                return try? ActionRecordCoder.readComponents(&reader)
            }
        }
    }

    /// What remembering `components` over `loaded` (nil: no memory yet) writes: a batch to
    /// append of those that differ from `loaded`'s, or the whole file when there is no memory,
    /// it did not all parse, it would be less than half current after the append, or
    /// `wholeFile` asks for it. Nil when `loaded` holds all of `components` already.
    static func update(
        _ components: [String: KeyComponents], over loaded: Loaded?, pipeline: String, wholeFile: Bool = false
    ) -> (data: Data, isWholeFile: Bool)? {
        var changed: [String: Data] = [:]
        var replacedBytes = 0
        for (id, key) in components {
            var writer = ResultWriter(capacity: 512)
            ActionRecordCoder.append(key, to: &writer)
            let encoded = writer.data
            if let loaded, let range = loaded.entries[id] {
                if loaded.data[range] == encoded { continue }
                replacedBytes += id.utf8.count + 8 + range.count
            }
            changed[id] = encoded
        }
        guard !changed.isEmpty || loaded == nil else { return nil }
        let batch = encodedBatch(changed.keys.sorted()) { changed[$0] }
        if !wholeFile, let loaded, loaded.parsedBytes == loaded.data.count,
            loaded.data.count + batch.count <= 2 * (loaded.currentBytes - replacedBytes + batch.count)
        {
            return (batch, false)
        }
        return (file(changed, over: loaded, pipeline: pipeline), true)
    }

    /// The file holding `loaded`'s latest components with `changed` (encoded) in place of those
    /// of the same ids, as one batch, ids sorted: equal memories are equal files.
    private static func file(_ changed: [String: Data], over loaded: Loaded?, pipeline: String) -> Data {
        let ids = Set(loaded?.entries.keys ?? [:].keys).union(changed.keys).sorted()
        let batch = encodedBatch(ids) { id in changed[id] ?? loaded.flatMap { $0.entries[id].map($0.data.subdata) } }
        var writer = ResultWriter(capacity: batch.count + pipeline.utf8.count + 32)
        writer.append(raw: magic)
        writer.append(version)
        writer.append(string: pipeline)
        writer.append(raw: batch)
        return writer.data
    }

    /// A batch of the encoded components `encoded(id)` of each of `ids`, with its length.
    private static func encodedBatch(_ ids: [String], _ encoded: (String) -> Data?) -> Data {
        var body = ResultWriter(capacity: ids.count * 600 + 4)
        body.append(count: ids.count)
        for id in ids {
            body.append(string: id)
            if let components = encoded(id) { body.append(raw: components) }
        }
        let encoded = body.data
        var writer = ResultWriter(capacity: encoded.count + 8)
        writer.append(lengthPrefixed: encoded)
        return writer.data
    }

    /// `data` read as this version's memory of `pipeline`, or nil when it is not one.
    static func load(_ data: Data, pipeline: String) -> Loaded? {
        data.withUnsafeBytes { bytes -> Loaded? in
            var reader = ByteReader(bytes)
            guard (try? reader.header(magic, version: version)) != nil, (try? reader.string()) == pipeline else {
                return nil
            }
            var entries: [String: Range<Int>] = [:]
            var parsed = reader.position
            while let end = try? readBatch(&reader, into: &entries, offset: data.startIndex) { parsed = end }
            return Loaded(data: data, entries: entries, parsedBytes: parsed)
        }
    }

    /// Reads the batch at `reader`'s position into `entries` (ranges shifted by `offset`),
    /// returning where it ends; throws, adding nothing, when none is left or it is cut short
    /// or does not parse.
    private static func readBatch(
        _ reader: inout ByteReader, into entries: inout [String: Range<Int>], offset: Int
    ) throws(ByteReader.Malformed) -> Int {
        let length = try reader.uint64()
        let start = reader.position
        guard length <= UInt64(Int.max) else { throw ByteReader.Malformed() }
        var batch = try reader.section(Int(length))
        let count = try batch.count(minimumItemSize: 12)
        var read: [(String, Range<Int>)] = []
        read.reserveCapacity(count)
        for _ in 0..<count {
            let id = try batch.string()
            let componentsStart = batch.position
            for _ in 0..<(try batch.count(minimumItemSize: 16) * 2) { try batch.skipString() }
            read.append((id, (offset + start + componentsStart)..<(offset + start + batch.position)))
        }
        try batch.finish()
        entries.reserveCapacity(entries.count + read.count)
        for (id, range) in read { entries[id] = range }
        return reader.position
    }

    /// The components in `data` if it is this version's memory of `pipeline`, else none.
    static func decode(_ data: Data, pipeline: String) -> [String: KeyComponents] {
        guard let loaded = load(data, pipeline: pipeline) else { return [:] }
        return loaded.entries.keys.reduce(into: [:]) { $0[$1] = loaded.components(of: $1) }
    }
}
