import ArgumentParser
import Foundation

/// Checks, before any work, that an HTML report can be written where `--report` or `--output`
/// says: the path is not a directory, and the nearest existing folder on its way is a directory
/// (missing ones are created when the report is written).
enum ReportDestination {
    /// Throws a usage error when `path` cannot become a file.
    static func check(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ValidationError("\(option): '\(path)' is a directory")
        }
        var ancestor = (path as NSString).deletingLastPathComponent
        while !ancestor.isEmpty, ancestor != "/" {
            if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { throw ValidationError("\(option): '\(ancestor)' is not a directory") }
                return
            }
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
    }
}
