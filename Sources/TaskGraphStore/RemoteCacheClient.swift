import Foundation

/// A remote cache on Bazel's HTTP cache protocol, as the two-level store reaches it: bodies by
/// path below the cache's URL, `ac/<key hex>` for action records and `cas/<sha256 hex>` for
/// blobs (docs/cache.md, "Remote cache"). `TaskGraphNetwork`'s `HTTPCacheClient` speaks HTTP.
///
/// Every method may be called from many tasks at once and never blocks the cooperative pool;
/// cancelling the calling task aborts the request at once. A failure (no server, 5xx, 401/403,
/// a reset or stalled body) is thrown; an absent entry is not a failure.
public protocol RemoteCacheClient: Sendable {
    /// The body at `path` (`GET`), or nil when the server has none (404).
    func get(_ path: String) async throws -> Data?

    /// Whether the server has a body at `path` (`HEAD`).
    func contains(_ path: String) async throws -> Bool

    /// Stores `body` at `path` (`PUT`).
    func put(_ path: String, _ body: Data) async throws
}
