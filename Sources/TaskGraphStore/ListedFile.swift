/// One file found by listing a directory of the store.
struct ListedFile: Sendable {
    /// Its path.
    var path: String
    /// Its name in its directory.
    var name: String
    /// Its size in bytes.
    var size: Int64
    /// Its modification time, in seconds since 1970.
    var modified: Double
    /// Whether it is a regular file.
    var isRegular: Bool
}
