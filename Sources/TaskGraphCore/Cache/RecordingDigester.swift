/// A `FileDigesting` that notes the paths it is asked for, so that the run knows which files
/// each operation's key rested on (`RunCache.entriesForNextRun`).
final class RecordingDigester: FileDigesting {
    private let digester: any FileDigesting
    private let noted = Locked<[String]>([])

    init(_ digester: any FileDigesting) {
        self.digester = digester
    }

    /// The paths asked for, in order.
    var paths: [String] { noted.withLock { $0 } }

    func digest(ofFile path: String) async throws -> ContentDigest {
        noted.withLock { $0.append(path) }
        return try await digester.digest(ofFile: path)
    }

    func blockingDigest(ofFile path: String) throws -> ContentDigest {
        noted.withLock { $0.append(path) }
        return try digester.blockingDigest(ofFile: path)
    }

    func blockingDigests(ofFiles paths: [String]) throws -> [ContentDigest] {
        noted.withLock { $0 += paths }
        return try digester.blockingDigests(ofFiles: paths)
    }

    func noteUncheckableDependency() {
        digester.noteUncheckableDependency()
    }

    func noteOutputFiles(_ paths: [String], forKey key: ContentDigest) {
        digester.noteOutputFiles(paths, forKey: key)
    }
}
