import Foundation
import TaskGraphCore

/// A remote cache reached over HTTP with libcurl: `GET`, `HEAD` and `PUT` below `baseURL`, on
/// a small pool of keep-alive connections, each request on a thread of the client's own
/// blocking pool (never the cooperative one). Headers (credentials) are sent with every
/// request and appear in no error. (The CLI makes it the store's `RemoteCacheClient`.)
public final class HTTPCacheClient: Sendable {
    /// Timeouts and limits of every request.
    public struct Settings: Sendable {
        /// How long connecting may take: 2 s.
        public var connectTimeoutMilliseconds = 2000
        /// How long a request may receive nothing before it fails: 10 s.
        public var stallSeconds = 10
        /// The largest body a `GET` accepts: 4 GiB.
        public var maxBytes: Int64 = 4 << 30
        /// How many requests run at once: 8.
        public var connections = 8

        /// The defaults.
        public init() {}
    }

    /// The cache's URL, without a trailing slash.
    public let baseURL: String
    private let headers: [String]
    private let settings: Settings
    private let pool: BlockingThreadPool
    /// Idle connections, reused (keep-alive) by the next request.
    private let idle = Locked<[ConnectionBox]>([])

    /// A client of the cache at `baseURL`, sending `headers` (`Name: value`) with every request.
    public init(baseURL: String, headers: [String] = [], settings: Settings = Settings()) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.headers = headers
        self.settings = settings
        pool = BlockingThreadPool(maximumThreads: settings.connections)
    }

    /// Loads libcurl on a thread of its own (not the caller's pool's: it is busy for the whole
    /// load), once per process: what a run that may use a remote cache starts before it reads
    /// its pipeline, so that loading the library and the 25 it needs (5–15 ms) overlaps that
    /// instead of delaying the run's first lookup. No thread can start while it loads
    /// (`BlockingThreadPool.startThreads()`).
    public static func loadLibrary() async {
        _ = try? await BlockingThreadPool.run({ CacheConnection.loadLibrary() }, submit: BlockingThreadPool.startThread)
    }

    /// Loads libcurl and makes one connection's handle on a thread of the client, so that the
    /// run's first request waits for neither (tens of milliseconds, much of a fully cached
    /// run). A failure is left for that request to report.
    public func prepare() async {
        _ = try? await pool.run { [self] in
            let box = ConnectionBox(try CacheConnection(headers: headers, settings: settings))
            idle.withLock { $0.append(box) }
        }
    }

    /// Ends the client's threads once its requests are done.
    public func shutDown() async {
        await pool.shutDown()
    }

    /// `GET`: nil for 404.
    /// - Throws: `RemoteCacheError`, `CancellationError`.
    public func get(_ path: String) async throws -> Data? {
        let (status, body) = try await request("GET", path)
        if status == 404 { return nil }
        guard (200..<300).contains(status) else { throw RemoteCacheError.status(status, method: "GET", path: path) }
        return body
    }

    /// `HEAD`: false for 404.
    /// - Throws: `RemoteCacheError`, `CancellationError`.
    public func contains(_ path: String) async throws -> Bool {
        let (status, _) = try await request("HEAD", path)
        if status == 404 { return false }
        guard (200..<300).contains(status) else { throw RemoteCacheError.status(status, method: "HEAD", path: path) }
        return true
    }

    /// `PUT`.
    /// - Throws: `RemoteCacheError`, `CancellationError`.
    public func put(_ path: String, _ body: Data) async throws {
        let (status, _) = try await request("PUT", path, body: body)
        guard (200..<300).contains(status) else { throw RemoteCacheError.status(status, method: "PUT", path: path) }
    }

    /// Runs one request on a pooled connection, aborted at once when the task is cancelled. Its
    /// CPU time is not metered into the operation asking (`UsageMeter`): the cache's traffic is
    /// not what recomputing the operation costs, and measuring it took four system calls.
    private func request(_ method: String, _ path: String, body: Data? = nil) async throws -> (status: Int, body: Data)
    {
        let url = baseURL + "/" + path
        return try await UsageMeter.$current.withValue(nil) {
            try await CancellationFlag.run { flag in
                try await pool.run { [self] in
                    let box =
                        try idle.withLock { $0.popLast() }
                        ?? ConnectionBox(try CacheConnection(headers: headers, settings: settings))
                    let result = try box.connection.perform(
                        method, url: url, path: path, body: body, maxBytes: settings.maxBytes,
                        isCancelled: { flag.isCancelled })
                    idle.withLock { $0.append(box) }
                    return result
                }
            }
        }
    }
}

/// A `CacheConnection` moved between pool threads.
///
/// `@unchecked Sendable`: a connection is used by one thread at a time; it is either in the
/// client's idle list (under its lock) or held by the one request that took it out.
private final class ConnectionBox: @unchecked Sendable {
    let connection: CacheConnection

    init(_ connection: CacheConnection) {
        self.connection = connection
    }
}
