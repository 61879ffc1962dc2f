/// Why `run --watch` cannot watch.
enum WatchError: Error, CustomStringConvertible {
    /// inotify refused a directory (the limit of watches reached, no permission).
    case cannotWatch(path: String, reason: String)

    var description: String {
        switch self {
        case .cannotWatch(let path, let reason):
            "cannot watch '\(path)' for changes: \(reason) (see /proc/sys/fs/inotify/max_user_watches)"
        }
    }
}
