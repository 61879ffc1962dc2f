import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The temporary directories of one test process: each is made in a directory of the process's
/// own under the system's temporary directory, which is removed when the process exits, so a test
/// that stops early (a failed `#require`, a thrown error) or has nowhere to clean up leaves nothing
/// behind in /tmp.
public enum ScratchDirectories {
    /// The process's directory, `taskgraph-tests-<pid>-<uuid>`, made at first use.
    public static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "taskgraph-tests-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchDirectories.root) }
        return root
    }()

    /// A new empty directory named `label` and a UUID, inside `root`.
    public static func make(_ label: String) throws -> URL {
        let directory = root.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
