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

    /// One operation's components in a batch being written: as `loaded` has them, or encoded
    /// as the batch is written.
    fileprivate enum Written {
        case encoded(Data)
        case components(KeyComponents)

        /// The bytes it takes in the batch.
        var count: Int {
            switch self {
            case .encoded(let data): data.count
            case .components(let components): ActionRecordCoder.encodedSize(of: components)
            }
        }

        /// Appends it to `writer`.
        func append(to writer: inout ResultWriter) {
            switch self {
            case .encoded(let data): writer.append(raw: data)
            case .components(let components): ActionRecordCoder.append(components, to: &writer)
            }
        }
    }

    /// What `update` writes: a batch of operations' components to append, or the whole file.
    /// It is encoded as it is written, in pieces of about `pieceSize` bytes each made once,
    /// never joined into one buffer (an `exec` with 50,000 `inputs:` files has megabytes of
    /// components; the memory of a first run of 2,000 `exec`s is 1.6 MB, and making one `Data`
    /// of one buffer held it twice at the run's peak).
    struct Update {
        /// Whether it is the whole file, its header first, rather than a batch to append.
        let isWholeFile: Bool
        /// The pipeline's path, in a whole file's header.
        fileprivate let pipeline: String
        /// Each id's components, ids sorted: equal memories are equal files.
        fileprivate let batch: [(id: String, components: Written?)]

        /// Hands the encoding to `write`, piece by piece.
        /// - Throws: what `write` throws.
        func encode<Failure: Error>(_ write: (Data) throws(Failure) -> Void) throws(Failure) {
            let headerSize = isWholeFile ? magic.count + 9 + pipeline.utf8.count : 0
            let length = batchLength(batch)
            var left = headerSize + 8 + length
            var writer = ResultWriter(capacity: min(left, pieceSize))
            var written = headerSize + 12
            if isWholeFile {
                writer.append(raw: magic)
                writer.append(version)
                writer.append(string: pipeline)
            }
            writer.append(UInt64(length))
            writer.append(count: batch.count)
            for (id, components) in batch {
                let size = 8 + id.utf8.count + (components?.count ?? 0)
                if written + size > pieceSize {
                    try write(writer.data)
                    left -= written
                    writer = ResultWriter(capacity: min(left, pieceSize))
                    written = 0
                }
                writer.append(string: id)
                components?.append(to: &writer)
                written += size
            }
            try write(writer.data)
        }

        /// The encoding as one `Data`: an append is a single `write`.
        var data: Data {
            var data = Data()
            encode { data.append($0) }
            return data
        }
    }

    /// The bytes of one piece of an `Update` as it is encoded, at most (unless one operation's
    /// components take more).
    static let pieceSize = 1 << 18

    /// What remembering `components` over `loaded` (nil: no memory yet) writes: a batch to
    /// append of those that differ from `loaded`'s, or the whole file when there is no memory,
    /// it did not all parse, it would be less than half current after the append, or
    /// `wholeFile` asks for it. Nil when `loaded` holds all of `components` already. Without a
    /// memory to compare with, each operation's components are encoded once, into the file
    /// (a first run of 2,000 operations held a second copy of them all, 1.6 MB, at its peak).
    static func update(
        _ components: [String: KeyComponents], over loaded: Loaded?, pipeline: String, wholeFile: Bool = false
    ) -> Update? {
        guard let loaded else { return file(components.mapValues(Written.components), over: nil, pipeline: pipeline) }
        var changed: [String: Written] = [:]
        var replacedBytes = 0
        for (id, key) in components {
            var writer = ResultWriter(capacity: ActionRecordCoder.encodedSize(of: key))
            ActionRecordCoder.append(key, to: &writer)
            let encoded = writer.data
            if let range = loaded.entries[id] {
                if loaded.data[range] == encoded { continue }
                replacedBytes += id.utf8.count + 8 + range.count
            }
            changed[id] = .encoded(encoded)
        }
        guard !changed.isEmpty else { return nil }
        let batch = changed.keys.sorted().map { (id: $0, components: changed[$0]) }
        let batchSize = 8 + batchLength(batch)
        if !wholeFile, loaded.parsedBytes == loaded.data.count,
            loaded.data.count + batchSize <= 2 * (loaded.currentBytes - replacedBytes + batchSize)
        {
            return Update(isWholeFile: false, pipeline: pipeline, batch: batch)
        }
        return file(changed, over: loaded, pipeline: pipeline)
    }

    /// The file holding `loaded`'s latest components with `changed` in place of those of the
    /// same ids.
    private static func file(_ changed: [String: Written], over loaded: Loaded?, pipeline: String) -> Update {
        let ids = Set(loaded?.entries.keys ?? [:].keys).union(changed.keys).sorted()
        let batch = ids.map { id in
            (
                id: id,
                components: changed[id] ?? loaded.flatMap { $0.entries[id].map($0.data.subdata).map(Written.encoded) }
            )
        }
        return Update(isWholeFile: true, pipeline: pipeline, batch: batch)
    }

    /// The length of `batch` encoded, without its own length field.
    fileprivate static func batchLength(_ batch: [(id: String, components: Written?)]) -> Int {
        batch.reduce(4) { $0 + 8 + $1.id.utf8.count + ($1.components?.count ?? 0) }
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
