import Foundation

/// One file found by listing a directory of the store.
struct ListedFile: Sendable {
    /// Its directory (one string shared by every file listed there).
    var directory: String
    /// Its name in its directory.
    var name: String
    /// Its size in bytes.
    var size: Int64
    /// Its modification time, in seconds since 1970.
    var modified: Double
    /// Its type, as `lstat` says (`S_IFREG`, `S_IFDIR`, `S_IFLNK`…).
    var type: mode_t

    /// Whether it is a regular file.
    var isRegular: Bool { type == S_IFREG }

    /// Its path.
    var path: String { directory + "/" + name }
}
