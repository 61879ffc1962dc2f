/// Why a whole-file read or an atomic write failed (`FileIO`, `ContainedDirectory`,
/// `TemporaryFiles`). An operation reports it as the `OperationError` of the same case and
/// message.
public enum FileError: Error, Equatable, Sendable {
    /// A file could not be read.
    case readFailed(path: String, reason: String)
    /// A file holds more bytes than the reader accepts (`load`'s `max_bytes`).
    case fileTooLarge(path: String, limit: Int)
    /// A file could not be written.
    case writeFailed(path: String, reason: String)
}

extension FileError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .readFailed(let path, let reason):
            "cannot read '\(path)': \(reason)"
        case .fileTooLarge(let path, let limit):
            "cannot read '\(path)': it is larger than max_bytes (\(limit) bytes)"
        case .writeFailed(let path, let reason):
            "cannot write '\(path)': \(reason)"
        }
    }
}
