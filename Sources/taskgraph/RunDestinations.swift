import ArgumentParser
import Foundation
import TaskGraphCore

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

    /// Checks that a file `option` names can be written where it is: it is not a directory and
    /// its directory exists (taskgraph creates no directory the user did not ask for).
    /// - Throws: `ValidationError` naming `option`.
    static func checkFile(_ path: String, option: String) async throws {
        let problem = try await BlockingIO.run { () -> String? in
            if FileKind(at: path) == .directory { return "'\(path)' is a directory" }
            let parent = (path as NSString).deletingLastPathComponent
            guard !parent.isEmpty, FileKind(at: parent) != .directory else { return nil }
            return "directory '\(parent)' does not exist"
        }
        if let problem { throw ValidationError("\(option): \(problem)") }
    }
}
