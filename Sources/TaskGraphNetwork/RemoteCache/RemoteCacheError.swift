/// Why a request to a remote cache failed. The store behind it turns any of these into one
/// warning and goes on with the local store.
public enum RemoteCacheError: Error, Equatable, Sendable {
    /// libcurl could not be loaded or could not make a handle.
    case unavailable(reason: String)
    /// The server answered with an error status (401, 403, 5xx, …).
    case status(Int, method: String, path: String)
    /// The connection failed, was reset or timed out.
    case transferFailed(method: String, path: String, reason: String)
}

extension RemoteCacheError: CustomStringConvertible {
    /// The failure as a user reads it; never a header value.
    public var description: String {
        switch self {
        case .unavailable(let reason):
            "libcurl is unavailable: \(reason)"
        case .status(let code, let method, let path):
            "\(method) \(path) answered HTTP \(code)"
        case .transferFailed(let method, let path, let reason):
            "\(method) \(path) failed: \(reason)"
        }
    }
}
