import Foundation

/// What a finished `exec` left: its standard output as bytes, how it ended, its stderr tail and
/// the contents of the files it declares in `outputs:`.
///
/// The declared files are part of the value, so of its digest: an `exec` whose output files
/// changed produced a different result, and what needs it runs again, even when it printed
/// nothing (docs/cache.md, "Rules").
public struct ProcessOutput: BytesProvider, ProducedFilesProvider, Codable, Hashable {
    /// A file the program wrote and declared in `outputs:`.
    public struct DeclaredFile: Codable, Hashable, Sendable {
        /// The path as declared, relative to the pipeline file's directory.
        public var path: String
        /// The SHA-256 of its contents when the program finished.
        public var digest: ContentDigest

        /// Describes a declared output file.
        public init(path: String, digest: ContentDigest) {
            self.path = path
            self.digest = digest
        }
    }

    /// The program's standard output.
    public var data: Data
    /// How it ended.
    public var status: ExitStatus
    /// The last bytes of its standard error (invalid UTF-8 replaced).
    public var standardErrorTail: String
    /// Its declared output files, in declared order.
    public var files: [DeclaredFile]

    /// The declared output files' paths, relative to the pipeline file's directory.
    public var producedFiles: [String] { files.map(\.path) }

    /// Describes a finished program.
    public init(data: Data, status: ExitStatus, standardErrorTail: String, files: [DeclaredFile] = []) {
        self.data = data
        self.status = status
        self.standardErrorTail = standardErrorTail
        self.files = files
    }

    /// What `result` left, with its declared output files.
    init(_ result: ProcessResult, files: [DeclaredFile] = []) {
        self.init(
            data: Data(result.standardOutput), status: result.status,
            standardErrorTail: String(decoding: result.standardErrorTail, as: UTF8.self), files: files)
    }

    /// `exited with status 3`, `was killed by signal 9`.
    public var statusText: String {
        switch status {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let signal): "was killed by signal \(signal)"
        }
    }

    /// The last `lines` non-empty lines of standard error, joined with ` | `.
    public func errorTail(lines: Int) -> String {
        standardErrorTail.split(separator: "\n").suffix(lines)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " | ")
    }

    /// `exited with status 0, 12 B of output`, and `, 2 files` when it declares output files.
    public var summary: String {
        let files =
            switch files.count {
            case 0: ""
            case 1: ", 1 file"
            case let count: ", \(count) files"
            }
        return "\(statusText), \(ByteCountText.format(data.count)) of output\(files)"
    }

    /// `process.output`.
    public static let kind = "process.output"
    /// The layout version `serialized()` writes.
    static let layoutVersion: UInt8 = 2

    /// Version 2: `u8` version; `u8` status (0 exited, 1 signalled); `u32` exit code or signal
    /// (the bits of a signed 32-bit number); the standard error tail (string); the standard
    /// output (length-prefixed bytes); a `u32` count of declared output files, each its path
    /// (string) and the 32 bytes of its SHA-256. (Version 1 had no files.)
    public func serialized() -> Data {
        let (tag, code): (UInt8, Int32) =
            switch status {
            case .exited(let code): (0, code)
            case .signalled(let signal): (1, signal)
            }
        return ResultWriter.payload(version: Self.layoutVersion) { writer in
            writer.append(tag)
            writer.append(UInt32(bitPattern: code))
            writer.append(string: standardErrorTail)
            writer.append(lengthPrefixed: data)
            writer.append(UInt32(files.count))
            for file in files {
                writer.append(string: file.path)
                writer.append(raw: file.digest.bytes)
            }
        }
    }

    /// Reads what `serialized()` writes.
    /// - Throws: `ResultCodingError`.
    public init(serialized payload: Data) throws {
        self = try ResultReader.read(payload, kind: Self.kind, version: Self.layoutVersion) { reader in
            let tag = try reader.readUInt8("status")
            let code = Int32(bitPattern: try reader.readUInt32("code"))
            let status: ExitStatus
            switch tag {
            case 0: status = .exited(code)
            case 1: status = .signalled(code)
            default:
                throw ResultCodingError.invalidValue(
                    subject: reader.subject, field: "status", reason: "is \(tag), not 0 (exited) or 1 (signalled)")
            }
            let errorTail = try reader.readString("standard error tail")
            let output = try reader.readLengthPrefixed("standard output")
            let count = try reader.readUInt32("declared file count")
            var files: [DeclaredFile] = []
            for _ in 0..<count {
                let path = try reader.readString("declared file path")
                guard
                    let digest = ContentDigest(
                        bytes: try reader.read(count: UInt64(ContentDigest.byteCount), "declared file digest"))
                else {
                    throw ResultCodingError.invalidValue(
                        subject: reader.subject, field: "declared file digest", reason: "is not 32 bytes")
                }
                files.append(DeclaredFile(path: path, digest: digest))
            }
            return ProcessOutput(data: output, status: status, standardErrorTail: errorTail, files: files)
        }
    }
}
