import Foundation

/// What a finished `exec` left: its standard output as bytes, how it ended and its stderr tail.
public struct ProcessOutput: BytesProvider, Codable, Hashable {
    /// The program's standard output.
    public var data: Data
    /// How it ended.
    public var status: ExitStatus
    /// The last bytes of its standard error (invalid UTF-8 replaced).
    public var standardErrorTail: String

    /// Describes a finished program.
    public init(data: Data, status: ExitStatus, standardErrorTail: String) {
        self.data = data
        self.status = status
        self.standardErrorTail = standardErrorTail
    }

    /// What `result` left.
    init(_ result: ProcessResult) {
        self.init(
            data: Data(result.standardOutput), status: result.status,
            standardErrorTail: String(decoding: result.standardErrorTail, as: UTF8.self))
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

    /// `exited with status 0, 12 B of output`.
    public var summary: String { "\(statusText), \(ByteCountText.format(data.count)) of output" }

    /// `process.output`.
    public static let kind = "process.output"
    /// The layout version `serialized()` writes.
    static let layoutVersion: UInt8 = 1

    /// Version 1: `u8` version; `u8` status (0 exited, 1 signalled); `u32` exit code or signal
    /// (the bits of a signed 32-bit number); the standard error tail (string); the standard
    /// output (length-prefixed bytes).
    public func serialized() -> Data {
        let (tag, code): (UInt8, Int32) = switch status {
        case .exited(let code): (0, code)
        case .signalled(let signal): (1, signal)
        }
        return ResultWriter.payload(version: Self.layoutVersion) { writer in
            writer.append(tag)
            writer.append(UInt32(bitPattern: code))
            writer.append(string: standardErrorTail)
            writer.append(lengthPrefixed: data)
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
            return ProcessOutput(data: output, status: status, standardErrorTail: errorTail)
        }
    }
}
