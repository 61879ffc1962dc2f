import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphReporting

/// Checks, before anything runs, the places a run writes to that the user named: a run that
/// could only fail at its end (or write somewhere unasked) is refused up front, with the reason.
enum RunDestinations {
    /// Checks that `directory` is a directory, or can be created: the nearest part of it that
    /// exists is a directory.
    /// - Throws: `ValidationError` naming the part that is not a directory.
    static func checkOutputDirectory(_ directory: String) async throws {
        let blocker = try await BlockingIO.run { () -> String? in
            var path = directory
            while !path.isEmpty, path != "/" {
                switch FileKind(at: path) {
                case .directory: return nil
                case .missing: path = (path as NSString).deletingLastPathComponent
                case .regular, .other: return path
                }
            }
            return nil
        }
        if let blocker {
            let reason = blocker == directory ? "Not a directory" : "'\(blocker)' is not a directory"
            throw ValidationError("cannot use output directory '\(directory)': \(reason)")
        }
    }

    /// Checks that a file `option` names can be written where it is: it is not a directory (nor
    /// a socket or block device: `RequestedOutputFile`) and its directory exists (taskgraph
    /// creates no directory the user did not ask for).
    /// - Throws: `ValidationError` naming `option`.
    static func checkFile(_ path: String, option: String) async throws {
        let problem = try await BlockingIO.run { () -> String? in
            if let problem = RequestedOutputFile.problem(with: path) { return problem }
            let parent = (path as NSString).deletingLastPathComponent
            guard !parent.isEmpty, FileKind(at: parent) != .directory else { return nil }
            return "directory '\(parent)' does not exist"
        }
        if let problem { throw ValidationError("\(option): \(problem)") }
    }

    /// Checks that no two of `files` (an option, or what the file is, and its path) are one
    /// file: the same path once resolved, or the same regular file by device and inode (a
    /// hard or symbolic link). FIFOs and devices may be named twice.
    /// - Throws: `ValidationError` naming both.
    static func checkDistinct(_ files: [(name: String, path: String)]) async throws {
        let identities = try await BlockingIO.run { files.map { identity(of: $0.path) } }
        for (later, identity) in identities.enumerated() {
            guard let identity, let earlier = identities[..<later].firstIndex(of: identity) else { continue }
            throw ValidationError(
                "\(files[earlier].name) and \(files[later].name) name the same file '\(files[later].path)'; "
                    + "it would be overwritten")
        }
    }

    /// What makes `path` one file: the device and inode of a regular file, the absolute path
    /// of one that does not exist yet; nil for a FIFO, a device or a directory.
    private static func identity(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            return "path " + (absolute as NSString).standardizingPath
        }
        return info.st_mode & S_IFMT == S_IFREG ? "file \(info.st_dev):\(info.st_ino)" : nil
    }
}
