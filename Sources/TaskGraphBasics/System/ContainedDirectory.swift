import Foundation

/// The directory that is to hold a file beneath a root directory, opened one component at a
/// time without following symbolic links, so a link inside the root (`out/link -> /elsewhere`)
/// cannot carry a write out of it. Missing directories are created on the way. Blocking.
///
/// The file is then reached through the open descriptor (`path(of:)`, a `/proc/self/fd` path),
/// never through the names again, so a link swapped in after the walk is not followed either.
package final class ContainedDirectory {
    /// The open directory.
    private let descriptor: Int32

    /// Opens the directory of `path`, which lies beneath `root`, creating missing directories
    /// below `root` (and `root` itself).
    /// - Throws: `FileError.writeFailed` naming `path`, with the component that is a
    ///   symbolic link or not a directory, or the system's reason.
    init(parentOf path: String, beneath root: String) throws(FileError) {
        guard path.hasPrefix(root + "/") else {
            throw .writeFailed(path: path, reason: "it is not inside '\(root)'")
        }
        if mkdir(root, 0o755) != 0, errno == ENOENT {
            try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        var current = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else {
            throw .writeFailed(path: path, reason: "cannot open directory '\(root)': \(FileIO.lastErrorText())")
        }
        var walked = root
        for component in path.dropFirst(root.count + 1).split(separator: "/").dropLast().map(String.init) {
            walked += "/" + component
            if mkdirat(current, component, 0o755) != 0, errno != EEXIST {
                let reason = FileIO.lastErrorText()
                close(current)
                throw .writeFailed(path: path, reason: "cannot create directory '\(walked)': \(reason)")
            }
            let next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            if next < 0 {
                let reason = Self.refusal(of: component, in: current, at: walked, errorNumber: failure)
                close(current)
                throw .writeFailed(path: path, reason: reason)
            }
            close(current)
            current = next
        }
        descriptor = current
    }

    /// Checks that the directory of `path` can be reached beneath `root` without passing
    /// through a symbolic link, creating missing directories (see `init`).
    package static func check(_ path: String, beneath root: String) throws(FileError) {
        _ = try ContainedDirectory(parentOf: path, beneath: root)
    }

    deinit {
        close(descriptor)
    }

    /// A path for `name` in this directory that the kernel resolves through the open descriptor.
    func path(of name: String) -> String {
        "/proc/self/fd/\(descriptor)/\(name)"
    }

    /// Why `component` of `directory` (shown as `walked`) could not be opened as a directory.
    private static func refusal(of component: String, in directory: Int32, at walked: String, errorNumber: Int32)
        -> String
    {
        var info = stat()
        if fstatat(directory, component, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFLNK {
            return "'\(walked)' is a symbolic link; paths in the output directory may not pass through one"
        }
        if errorNumber == ENOTDIR { return "'\(walked)' is not a directory" }
        return "'\(walked)': \(String(cString: strerror(errorNumber)))"
    }
}
