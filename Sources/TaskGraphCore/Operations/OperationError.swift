import Foundation

/// Why a built-in operation failed. Every case reads as a complete sentence for the summary.
public enum OperationError: Error, Equatable, Sendable {
    /// No dependency provides what the operation consumes.
    case missingInput(node: String, expected: String)
    /// A program exited unsuccessfully; the tail of its standard error explains why.
    case processFailed(program: String, status: String, stderrTail: String)
    /// A file could not be read.
    case readFailed(path: String, reason: String)
    /// A file holds more bytes than the reader accepts (`load`'s `max_bytes`).
    case fileTooLarge(path: String, limit: Int)
    /// A program wrote more to standard output than an `exec` result holds.
    case outputTooLarge(program: String, limit: Int)
    /// A file could not be written.
    case writeFailed(path: String, reason: String)
    /// A setup names an operation type the registry does not hold.
    case unknownType(String)
    /// A setup made in code names a parameter its operation type does not have.
    case unknownParameter(type: String, name: String, suggestion: String?)
    /// A parameter set in code holds a value its type does not accept.
    case invalidParameterValue(type: String, name: String, expected: String, value: String)
    /// A parameter the type requires was not set in code.
    case missingParameter(type: String, name: String)
    /// A parameter names an environment variable that no environment can hold.
    case invalidEnvironmentName(parameter: String, name: String)
    /// A list of paths (`exec`'s `inputs`, `outputs`) holds an empty one.
    case emptyPath(parameter: String)
    /// `exec`'s `outputs` holds a path that is absolute or leaves the pipeline directory.
    case outputOutsidePipelineDirectory(String)
    /// A path (no wildcard) in `exec`'s `inputs` names nothing.
    case declaredInputMissing(operation: String, path: String)
    /// A path (no wildcard) in `exec`'s `inputs` names a directory or another non-file.
    case declaredInputNotAFile(operation: String, path: String)
    /// An `exec` program exited successfully without creating a file of its `outputs`.
    case declaredOutputMissing(operation: String, path: String)
    /// A path of an `exec`'s `outputs` names a directory or another non-file after it ran.
    case declaredOutputNotAFile(operation: String, path: String)
    /// With `run --lint=error`: an `exec` program read or wrote files it does not declare; one
    /// message per file (`UndeclaredFileAccesses`).
    case undeclaredFileAccess([String])
}

extension OperationError {
    /// The case of `error`, with its message.
    package init(_ error: FileError) {
        switch error {
        case .readFailed(let path, let reason): self = .readFailed(path: path, reason: reason)
        case .fileTooLarge(let path, let limit): self = .fileTooLarge(path: path, limit: limit)
        case .writeFailed(let path, let reason): self = .writeFailed(path: path, reason: reason)
        }
    }

    /// Runs `body`, turning a `FileError` it throws into the `OperationError` of the same case.
    package static func reportingFileErrors<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as FileError {
            throw OperationError(error)
        }
    }
}

extension OperationError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .missingInput(let node, let expected):
            "'\(node)' received no input providing \(Self.providerName(expected))"
        case .processFailed(let program, let status, let stderrTail):
            "'\(program)' \(status)" + (stderrTail.isEmpty ? "" : ": \(stderrTail)")
        case .readFailed(let path, let reason):
            FileError.readFailed(path: path, reason: reason).description
        case .fileTooLarge(let path, let limit):
            FileError.fileTooLarge(path: path, limit: limit).description
        case .outputTooLarge(let program, let limit):
            "'\(program)' wrote more than \(ByteCountText.format(limit)) to standard output, the most "
                + "an exec result holds; have it write a file named in 'outputs' instead"
        case .writeFailed(let path, let reason):
            FileError.writeFailed(path: path, reason: reason).description
        case .unknownType(let name):
            "no operation type '\(name)' is registered"
        case .unknownParameter(let type, let name, let suggestion):
            "'\(type)' has no parameter '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .invalidParameterValue(let type, let name, let expected, let value):
            "'\(type)': '\(name)' must be \(expected), not \(value)"
        case .missingParameter(let type, let name):
            "'\(type)': missing required parameter '\(name)'"
        case .invalidEnvironmentName(let parameter, let name):
            "'\(parameter)' names '\(name)', which is not an environment variable name "
                + "(non-empty, without '=' or NUL)"
        case .emptyPath(let parameter):
            "'\(parameter)' holds an empty path"
        case .outputOutsidePipelineDirectory(let path):
            "'outputs' holds '\(path)', which is not a relative path inside the pipeline file's directory"
        case .declaredInputMissing(let operation, let path):
            "exec '\(operation)': declared input '\(path)' does not exist"
        case .declaredInputNotAFile(let operation, let path):
            "exec '\(operation)': declared input '\(path)' is not a file (for the files under a directory write "
                + "'\(path)/**')"
        case .declaredOutputMissing(let operation, let path):
            "exec '\(operation)': declared output '\(path)' was not created"
        case .declaredOutputNotAFile(let operation, let path):
            "exec '\(operation)': declared output '\(path)' is not a file"
        case .undeclaredFileAccess(let messages):
            messages.joined(separator: "; ")
        }
    }

    /// Provider protocols in the words users know (`BytesProvider` → `bytes`).
    private static func providerName(_ typeName: String) -> String {
        switch typeName.replacingOccurrences(of: "any ", with: "") {
        case "BytesProvider": "bytes"
        case "ImageDataProvider": "an image"
        case "FileProvider": "a file"
        case let other: other
        }
    }
}
