import Foundation
import TaskGraphCore
import TestSupport

@testable import TaskGraphStore

/// A fresh empty directory under the system's temporary directory.
func emptyDirectory(_ label: String = "store") throws -> String {
    try ScratchDirectories.make(label).path
}

/// A store in a fresh directory, reading the core's result kinds.
func temporaryStore() throws -> ContentStore {
    ContentStore(root: try emptyDirectory() + "/cache", registry: .core)
}

/// Writes `text` to the file at `path`.
func writeFile(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// The text of the file at `path`.
func readFile(_ path: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
}

/// Sets the access and modification times of the file at `path` to `seconds` ago.
func backdate(_ path: String, by seconds: Double) {
    let time = Date().timeIntervalSince1970 - seconds
    let spec = timespec(tv_sec: Int(time), tv_nsec: Int((time - time.rounded(.down)) * 1e9))
    let times = [spec, spec]
    utimensat(AT_FDCWD, path, times, 0)
}

/// Backdates every file under `directory` by `seconds`, as if written that long ago.
func backdateAll(under directory: String, by seconds: Double) {
    guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return }
    for case let name as String in enumerator {
        backdate(directory + "/" + name, by: seconds)
    }
}

/// The inode of the file at `path`.
func inode(of path: String) -> UInt64? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
}

/// The permission bits of the file at `path`.
func mode(of path: String) -> mode_t? {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
}

/// A record of `result` with one output file and a few components, those of `sampleKey(key)`
/// (a record is read back only for the key its components hash to).
func sampleRecord(
    result: ContentDigest, file: ActionRecord.OutputFile? = nil, id: String = "tilt[lake]", key: String = "a"
) -> ActionRecord {
    ActionRecord(
        result: result, resultKind: "bytes", summary: "5 B", outputFiles: file.map { [$0] } ?? [],
        validators: ["etag": "\"abc\"", "last-modified": "Mon, 23 Nov 2026 10:00:00 GMT"], seconds: 0.25,
        recordedAt: 1_795_000_000.5, id: id, components: sampleComponents(text: key))
}

/// The components of `sampleKey(text)`.
func sampleComponents(text: String) -> KeyComponents {
    var components = KeyComponents()
    components.add("operation", "tilt-shift")
    components.add("parameter.blur_radius", "8")
    components.add("input.load", "sha256:" + String(repeating: "ab", count: 32))
    components.add("test", text)
    return components
}

/// A key made of a few components, one of them `text`.
func sampleKey(_ text: String) -> ContentDigest {
    sampleComponents(text: text).key
}

extension ContentStore {
    /// The path of the blob `digest`.
    func blobPath(_ digest: ContentDigest) -> String { layout.blob(digest) }
    /// The path of the record of `key`.
    func recordPath(_ key: ContentDigest) -> String { layout.record(key) }
}

/// The temporary files (`write-…`) anywhere in `store`: in `tmp/` or beside the blobs and
/// records, where those are written.
func temporaryFilesAnywhere(in store: ContentStore) -> [String] {
    let everything = FileManager.default.enumerator(atPath: store.root + "/v1")?.allObjects as? [String] ?? []
    return everything.filter { ($0 as NSString).lastPathComponent.hasPrefix(StoreIO.temporaryPrefix) }
}
