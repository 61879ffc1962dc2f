/// A blob or record found by listing the store: its name, the fan-out directory it is in (an
/// index into `StoreScan.directories`), and what `lstat` said of it.
struct StoreEntry: Sendable {
    /// Its name (the file's name is `name.hex`).
    var name: EntryName
    /// Its directory, an index into `StoreScan.directories`.
    var directory: Int
    /// Its size in bytes.
    var size: Int64
    /// Its modification time (its last use), in seconds since 1970.
    var modified: Double
}
