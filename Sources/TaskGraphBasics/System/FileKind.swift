import Foundation

/// What a path names, by `stat(2)`. Blocking: call it through `BlockingIO.run` or a run's
/// `RunResources.blockingIO`.
package enum FileKind: Equatable, Sendable {
    /// Nothing (or nothing that can be reached: a dangling link, a directory without search rights).
    case missing
    /// A regular file.
    case regular
    /// A directory.
    case directory
    /// Anything else: a device, a socket, a FIFO, or a link when links are not followed.
    case other

    /// What `path` names now.
    /// - Parameter followingLinks: whether a symbolic link stands for what it points to
    ///   (`stat`) or for itself (`lstat`, then it is `other`).
    package init(at path: String, followingLinks: Bool = true) {
        var info = stat()
        let found = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard found == 0 else {
            self = .missing
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        default: self = .other
        }
    }
}
