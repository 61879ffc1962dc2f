import Foundation
import TaskGraphCore

/// The encoding of an action record in the store (docs/cache.md, "Records"): compact binary in
/// the conventions of docs/results.md, read by hand. A no-op run of 10,000 operations reads
/// 10,000 records; `JSONDecoder` would spend most of that run's time decoding them.
package enum ActionRecordCoder {
    /// The first bytes of every record: `TGAR`.
    static let magic: [UInt8] = Array("TGAR".utf8)
    /// The version of the layout this build writes and reads.
    static let version: UInt8 = 4

    /// The encoding of `record`; validators sorted by name, so the same record always gives the
    /// same bytes.
    package static func encode(_ record: ActionRecord) -> Data {
        var writer = ResultWriter(capacity: 256)
        writer.append(raw: magic)
        writer.append(version)
        writer.append(digest: record.result)
        append(held: record.inlineResult, to: &writer)
        writer.append(string: record.resultKind)
        writer.append(string: record.summary)
        writer.append(record.seconds)
        writer.append(record.recordedAt)
        writer.append(string: record.id)
        writer.append(count: record.outputFiles.count)
        for file in record.outputFiles {
            writer.append(digest: file.digest)
            append(held: file.contents, to: &writer)
            writer.append(string: file.path)
        }
        writer.append(count: record.validators.count)
        for (name, value) in record.validators.sorted(by: { $0.key < $1.key }) {
            writer.append(string: name)
            writer.append(string: value)
        }
        append(record.components, to: &writer)
        return writer.data
    }

    /// Reads an encoded record, or nil when `bytes` is not one of this version.
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> ActionRecord? {
        var reader = ByteReader(bytes)
        do {
            try reader.header(magic, version: version)
            let result = try reader.digest()
            let inline = try readHeld(&reader, digest: result)
            let kind = try reader.string()
            let summary = try reader.string()
            let seconds = try reader.double()
            let recordedAt = try reader.double()
            let id = try reader.string()
            var files: [ActionRecord.OutputFile] = []
            let fileCount = try reader.count(minimumItemSize: outputFileMinimumSize)
            files.reserveCapacity(fileCount)
            for _ in 0..<fileCount {
                let digest = try reader.digest()
                let contents = try readHeld(&reader, digest: digest)
                files.append(ActionRecord.OutputFile(path: try reader.string(), digest: digest, contents: contents))
            }
            var validators: [String: String] = [:]
            for _ in 0..<(try reader.count(minimumItemSize: 16)) {
                let name = try reader.string()
                validators[name] = try reader.string()
            }
            let components = try readComponents(&reader)
            try reader.finish()
            return ActionRecord(
                result: result, resultKind: kind, summary: summary, outputFiles: files, validators: validators,
                seconds: seconds, recordedAt: recordedAt, id: id, components: components, inlineResult: inline)
        } catch {
            return nil
        }
    }

    /// The fewest bytes an output file takes: its digest, whether the record holds it, its path's count.
    private static let outputFileMinimumSize = ContentDigest.byteCount + 1 + 8

    /// Appends whether the record holds an entry's bytes: `u8` 0 (a blob holds them), or `u8` 1
    /// and `held` as a `u64` count and the bytes.
    private static func append(held: Data?, to writer: inout ResultWriter) {
        if let held {
            writer.append(UInt8(1))
            writer.append(lengthPrefixed: held)
        } else {
            writer.append(UInt8(0))
        }
    }

    /// Reads what `append(held:to:)` wrote for an entry named by `digest`: the bytes the record
    /// holds, checked against the digest, or nil for a blob.
    /// - Throws: `ByteReader.Malformed` for another flag or bytes that do not match the digest:
    ///   a damaged held result or file reads as no record.
    private static func readHeld(_ reader: inout ByteReader, digest: ContentDigest) throws(ByteReader.Malformed)
        -> Data?
    {
        switch try reader.uint8() {
        case 0: return nil
        case 1:
            let held = try reader.lengthPrefixed()
            guard ContentDigest.sha256(of: held) == digest else { throw ByteReader.Malformed() }
            return held
        default: throw ByteReader.Malformed()
        }
    }

    /// Reads a `u32` count of name and value pairs into key components (a repeated name, which
    /// no encoder writes, is taken as `KeyComponents.add` takes it).
    static func readComponents(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> KeyComponents {
        var components = KeyComponents()
        let count = try reader.count(minimumItemSize: 16)
        components.reserveCapacity(count)
        for _ in 0..<count {
            let name = try reader.string()
            components.add(name, try reader.string())
        }
        return components
    }

    /// How many bytes `append(_:to:)` writes for `components`.
    static func encodedSize(of components: KeyComponents) -> Int {
        components.components.reduce(4) { $0 + 16 + $1.name.utf8.count + $1.value.utf8.count }
    }

    /// Appends `components` as a `u32` count of name and value pairs.
    static func append(_ components: KeyComponents, to writer: inout ResultWriter) {
        writer.append(count: components.components.count)
        for component in components.components {
            writer.append(string: component.name)
            writer.append(string: component.value)
        }
    }

    /// Reads the record in `data`, or nil.
    package static func decode(_ data: Data) -> ActionRecord? {
        data.withUnsafeBytes { decode($0) }
    }

    /// Reads the record in the file open as `descriptor`, `size` bytes long, or nil. Blocking.
    static func read(_ descriptor: Int32, size: Int64) -> ActionRecord? {
        read(descriptor, size: size) { decode($0) }
    }

    /// The names of the blobs the record in the file open as `descriptor` names
    /// (`blobNames(in:)`). Blocking.
    static func blobNames(_ descriptor: Int32, size: Int64) -> [EntryName]? {
        read(descriptor, size: size) { blobNames(in: $0) }
    }

    /// The names of the blobs the record in `bytes` names, each once (not those of a result or
    /// file it holds, whose bytes are checked against their digest); its other fields are
    /// checked for length but not decoded (no string is made). Nil when it is not a record.
    static func blobNames(in bytes: UnsafeRawBufferPointer) -> [EntryName]? {
        var reader = ByteReader(bytes)
        do {
            try reader.header(magic, version: version)
            var names: [EntryName] = []
            let result = try reader.digest()
            if try readHeld(&reader, digest: result) == nil { names.append(EntryName(result)) }
            try reader.skipString() // kind
            try reader.skipString() // summary
            try reader.skip(16) // seconds, recorded at
            try reader.skipString() // id
            for _ in 0..<(try reader.count(minimumItemSize: outputFileMinimumSize)) {
                let digest = try reader.digest()
                let name = EntryName(digest)
                if try readHeld(&reader, digest: digest) == nil, !names.contains(name) { names.append(name) }
                try reader.skipString()
            }
            for _ in 0..<2 { // validators, components
                for _ in 0..<(try reader.count(minimumItemSize: 16)) {
                    try reader.skipString()
                    try reader.skipString()
                }
            }
            try reader.finish()
            return names
        } catch {
            return nil
        }
    }

    /// Reads the file open as `descriptor`, `size` bytes long, into a temporary buffer handed
    /// to `body`; nil when it cannot be read whole or is no record's size. Blocking.
    private static func read<Value>(
        _ descriptor: Int32, size: Int64, _ body: (UnsafeRawBufferPointer) -> Value?
    ) -> Value? {
        guard size > 0, size < maximumSize else { return nil }
        let size = Int(size)
        return withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { buffer -> Value? in
            var offset = 0
            while offset < size {
                let count = Glibc.read(descriptor, buffer.baseAddress! + offset, size - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return nil }
                offset += count
            }
            return body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// The largest record read: 16 MiB (a record of many output files; most are a few hundred bytes).
    static let maximumSize: Int64 = 1 << 24
}
