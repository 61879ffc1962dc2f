import Foundation
import TaskGraphCore

extension ContentStore {
    /// The key of the plan of a pipeline file holding `bytes`, loaded by the executable at
    /// `executable` (whose operation types plan it): SHA-256 of `taskgraph plan 1`, NUL, the
    /// executable's `stat` (size, modification and change times, inode, device) and the
    /// bytes. Nil when the executable cannot be `stat`ed. Blocking.
    public static func planKey(pipeline bytes: Data, executable: String) -> ContentDigest? {
        guard let stat = FileStat.of(executable) else { return nil }
        var writer = ResultWriter(capacity: 64)
        writer.append(raw: Array("taskgraph plan 1\0".utf8))
        for field in [
            UInt64(bitPattern: stat.size), UInt64(bitPattern: stat.modified), UInt64(bitPattern: stat.changed),
        ] {
            writer.append(field)
        }
        writer.append(stat.inode)
        writer.append(stat.device)
        var hasher = ContentHasher()
        hasher.update(writer.data)
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The pipeline planned when the command `invocation` last loaded a pipeline file under
    /// `key` (`planKey(pipeline:executable:)`), its actions made by `registry`; nil when none
    /// was kept, it cannot be read, or an action cannot be made.
    public func plan(invocation: ContentDigest, key: ContentDigest, registry: OperationRegistry) async -> Pipeline? {
        let path = layout.plan(invocation)
        let layout = layout
        return try? await BlockingIO.run { () -> Pipeline? in
            guard let data = try StoreIO.mapped(path, layout), let plan = PlanCoder.decode(data, key: key) else {
                return nil
            }
            return plan.pipeline(registry: registry)
        }
    }

    /// Keeps `pipeline`, loaded from a file under `key`, as the plan of the command
    /// `invocation`, unless it has warnings or its encoding would not read back as it is.
    /// A store that cannot be written keeps nothing.
    public func rememberPlan(_ pipeline: Pipeline, invocation: ContentDigest, key: ContentDigest) async {
        let path = layout.plan(invocation)
        let layout = layout
        _ = try? await BlockingIO.run {
            guard let data = PlanCoder.encode(pipeline, key: key),
                PlanCoder.decode(data, key: key)?.matches(pipeline) == true
            else { return }
            // Flushed even by a store that flushes nothing else, like the snapshot: a plan that a
            // crash left with zeros in it could still decode (docs/cache.md, "Writing").
            try StoreIO.writeFile(data, to: path, layout)
        }
    }
}
