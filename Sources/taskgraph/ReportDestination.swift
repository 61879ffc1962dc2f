import ArgumentParser
import Foundation

/// Checks, before any work, that an HTML report can be written where `--report` or `-o` says.
enum ReportDestination {
    /// Throws a usage error when `path`'s directory does not exist or `path` is a directory.
    static func check(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ValidationError("\(option): '\(path)' is a directory")
        }
        let directory = (path as NSString).deletingLastPathComponent
        guard directory.isEmpty || (FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue)
        else { throw ValidationError("\(option): the directory '\(directory)' does not exist") }
    }
}
