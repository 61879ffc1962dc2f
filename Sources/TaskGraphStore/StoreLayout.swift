import Foundation
import TaskGraphCore

/// Where each file of a store lives (docs/cache.md, "Store layout"): everything under
/// `<root>/v1`, blobs and records fanned out by the first two hexadecimal digits of their name.
package struct StoreLayout: Sendable {
    /// The layout's version, the name of the directory under the root.
    package static let version = "v1"

    /// The store's root directory, as given.
    package let root: String
    /// `<root>/v1`.
    package let base: String

    /// The layout of a store at `root`.
    package init(root: String) {
        self.root = root
        base = (root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root) + "/" + Self.version
    }

    /// The root as maintenance trusts it: `base` without `/v1` (a link there is followed, none
    /// below it is: `StoreDirectory`).
    package var trustedRoot: String { String(base.dropLast(Self.version.count + 1)) }

    /// Content-addressed blobs: `blobs/ab/ab…` (64 hexadecimal digits).
    package var blobs: String { base + "/blobs" }
    /// Action records: `records/cd/cd…` (the key's 64 hexadecimal digits).
    package var records: String { base + "/records" }
    /// Temporary files of writes in progress, renamed into place once complete.
    package var temporary: String { base + "/tmp" }
    /// The stat cache of file digests.
    package var statCache: String { base + "/stat-cache" }
    /// The log of recent runs' hits and misses.
    package var runLog: String { base + "/runs" }
    /// The size measured by the last full scan (what `evictIfNeeded` starts from).
    package var usage: String { base + "/usage" }
    /// The last key components of each pipeline's operations, one file per pipeline.
    package var pipelines: String { base + "/pipelines" }
    /// Rewritten before anything is removed from the store: what up-to-date snapshots watch.
    package var removals: String { base + "/removals" }
    /// Up-to-date snapshots, one per invocation.
    package var snapshots: String { base + "/snapshots" }
    /// Planned pipelines, one per invocation.
    package var plans: String { base + "/plans" }

    /// The blob holding the content `digest` names.
    package func blob(_ digest: ContentDigest) -> String { Self.fannedOut(blobs, digest.hex) }

    /// The record of `key`.
    package func record(_ key: ContentDigest) -> String { Self.fannedOut(records, key.hex) }

    /// The components file of the pipeline file at `pipeline` (an absolute path), named by the
    /// SHA-256 of that path.
    package func components(pipeline: String) -> String {
        pipelines + "/" + ContentDigest.sha256(of: Data(pipeline.utf8)).hex
    }

    /// The operation ids of the last whole run of the pipeline file at `pipeline` (an absolute
    /// path), beside its components file.
    package func runIDs(pipeline: String) -> String { components(pipeline: pipeline) + ".ids" }

    /// The up-to-date snapshot of the invocation `invocation`.
    package func snapshot(_ invocation: ContentDigest) -> String { snapshots + "/" + invocation.hex }

    /// The plan kept for the invocation `invocation`.
    package func plan(_ invocation: ContentDigest) -> String { plans + "/" + invocation.hex }

    /// Whether `name` is the name of a blob or record: exactly 64 lowercase hexadecimal digits.
    /// Temporary files and anything else never are.
    package static func isEntryName(_ name: some Collection<UInt8>) -> Bool {
        name.count == 2 * ContentDigest.byteCount
            && name.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            }
    }

    private static func fannedOut(_ directory: String, _ hex: String) -> String {
        directory + "/" + hex.prefix(2) + "/" + hex
    }
}
