/// Where this run's operations write their files, by key: a key names its output files relative
/// to the output or pipeline directory (`KeyComponents.of`), so a record made in another
/// checkout or for another output directory names other absolute paths. A store gives such a
/// record the paths noted here before the engine restores or checks them, so a hit writes this
/// run's files, never the other checkout's.
public final class OutputLocations: Sendable {
    private enum Entry {
        case paths([String])
        /// Two operations of one key write different files: no record can say which it is for.
        case ambiguous
    }

    private let entries = Locked<[ContentDigest: Entry]>([:])

    /// None noted yet.
    public init() {}

    /// Notes that the operation whose key is `key` writes `paths` (absolute, in its order).
    public func note(_ paths: [String], forKey key: ContentDigest) {
        entries.withLock { entries in
            switch entries[key] {
            case nil: entries[key] = .paths(paths)
            case .paths(let noted) where noted != paths: entries[key] = .ambiguous
            default: break
            }
        }
    }

    /// `record` with its output files at the paths noted for `key`, in order; `record` as it is
    /// when nothing was noted; nil when the paths cannot be told (two operations of the key
    /// write different files, or the record names another number of files).
    public func relocated(_ record: ActionRecord, for key: ContentDigest) -> ActionRecord? {
        guard !record.outputFiles.isEmpty else { return record }
        switch entries.withLock({ $0[key] }) {
        case nil:
            return record
        case .ambiguous:
            return nil
        case .paths(let paths):
            guard paths.count == record.outputFiles.count else { return nil }
            var relocated = record
            for index in paths.indices { relocated.outputFiles[index].path = paths[index] }
            return relocated
        }
    }
}
