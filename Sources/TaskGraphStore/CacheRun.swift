import Foundation

/// One run's use of the store, as `cache status` lists it.
public struct CacheRun: Hashable, Sendable {
    /// When it was recorded, in seconds since 1970.
    public var date: Double
    /// Operations whose result came from the store.
    public var hits: Int
    /// Operations that ran.
    public var misses: Int
    /// The pipeline file's absolute path.
    public var pipeline: String
    /// What it did with a remote cache, when it used one.
    public var remote: RemoteStatistics?

    /// Creates a run entry.
    public init(date: Double, hits: Int, misses: Int, pipeline: String, remote: RemoteStatistics? = nil) {
        self.date = date
        self.hits = hits
        self.misses = misses
        self.pipeline = pipeline
        self.remote = remote
    }

    /// How many runs the log keeps: the latest 50.
    static let kept = 50

    /// The log's line for this run: date, hits, misses and pipeline, separated by tabs (tabs
    /// and line breaks in the path become spaces); with a remote cache, then its hits, misses,
    /// bytes down and bytes up.
    var line: String {
        let path = String(pipeline.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
        guard let remote else { return "\(date)\t\(hits)\t\(misses)\t\(path)\n" }
        return "\(date)\t\(hits)\t\(misses)\t\(path)\t"
            + "\(remote.hits)\t\(remote.misses)\t\(remote.bytesDown)\t\(remote.bytesUp)\n"
    }

    /// The runs in a log's text, oldest first; lines that are not runs are skipped.
    static func parse(_ text: String) -> [CacheRun] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 || fields.count == 8, let date = Double(fields[0]), let hits = Int(fields[1]),
                let misses = Int(fields[2])
            else { return nil }
            var run = CacheRun(date: date, hits: hits, misses: misses, pipeline: String(fields[3]))
            if fields.count == 8 {
                guard let remoteHits = Int(fields[4]), let remoteMisses = Int(fields[5]), let down = Int64(fields[6]),
                    let up = Int64(fields[7])
                else { return nil }
                run.remote = RemoteStatistics(hits: remoteHits, misses: remoteMisses, bytesDown: down, bytesUp: up)
            }
            return run
        }
    }
}
