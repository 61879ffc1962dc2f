import Foundation

/// Opens a directory of a store without leaving the store's tree. The root is opened as given
/// (it may itself be a link, e.g. a cache directory moved to another disk); every directory
/// below it is opened relative to its parent with `O_NOFOLLOW`, so a symbolic link placed inside
/// the store (a fan-out directory, `tmp/`, `v1`) is never followed, even if it appears after the
/// store was listed. Maintenance lists and removes only through these descriptors. Blocking.
enum StoreDirectory {
    /// Opens `path`, a directory of the store of `layout`.
    /// - Returns: its descriptor (the caller closes it), or -1 with `errno` set, `ELOOP` when
    ///   a component below the root is a symbolic link.
    static func open(_ path: String, _ layout: StoreLayout) -> Int32 {
        let root = layout.trustedRoot
        guard path == root || path.hasPrefix(root + "/") || root == "/" else {
            errno = EXDEV
            return -1
        }
        var descriptor = Glibc.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        for component in path.dropFirst(root.count).split(separator: "/") where component != "." {
            let next = openat(descriptor, String(component), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            var failure = errno
            if next < 0, isLink(String(component), in: descriptor) { failure = ELOOP }
            close(descriptor)
            guard next >= 0, component != ".." else {
                if next >= 0 { close(next) }
                errno = next >= 0 ? EXDEV : failure
                return -1
            }
            descriptor = next
        }
        return descriptor
    }

    /// Whether `path` is a symbolic link (not followed).
    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    private static func isLink(_ name: String, in directory: Int32) -> Bool {
        var info = stat()
        return fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}
