import Foundation
import TaskGraphCore
import TaskGraphStore

/// Fills a store with records and blobs in its documented layout, written directly: each entry
/// a record naming a result blob and an output-file blob of its own, its record last used
/// between now and 30 days ago, its blobs older than the grace period.
struct StoreFiller {
    let layout: StoreLayout

    init(root: String) {
        layout = StoreLayout(root: root)
    }

    /// What was written.
    struct Fill {
        var keys: [ContentDigest]
        var bytes: Int64
        var seconds: Double
    }

    func fill(entries: Int) throws -> Fill {
        let start = ContinuousClock.now
        var keys: [ContentDigest] = []
        var bytes: Int64 = 0
        let now = Date().timeIntervalSince1970
        for index in 0..<entries {
            let record = record(index)
            let key = record.components.key
            let blobAge = Double(ContentStore.gracePeriod) * 2 + 30 * 86_400
            bytes += try write(Self.result(index), to: layout.blob(record.result), modified: now - blobAge)
            bytes += try write(Self.file(index), to: layout.blob(record.outputFiles[0].digest), modified: now - blobAge)
            let used = now - ContentStore.gracePeriod * 2 - Double(index % 30) * 86_400 - Double(index) / 1000
            bytes += try write(ActionRecordCoder.encode(record), to: layout.record(key), modified: used)
            keys.append(key)
        }
        let elapsed = ContinuousClock.now - start
        return Fill(
            keys: keys, bytes: bytes,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The record of entry `index`.
    func record(_ index: Int) -> ActionRecord {
        var components = KeyComponents()
        components.add("operation", "tilt-shift")
        components.add("version", "1")
        components.add("parameter.blur_radius", "\(index % 17)")
        components.add("parameter.focus", "0.5")
        components.add("parameter.path", "out/photo-\(index).jpg")
        components.add("input.load[\(index)]", ContentDigest.sha256(of: Data("input \(index)".utf8)).description)
        components.add(
            "file./work/photos/photo-\(index).jpg", ContentDigest.sha256(of: Data("photo \(index)".utf8)).description)
        let file = ActionRecord.OutputFile(
            path: "/work/out/photo-\(index).jpg", digest: ContentDigest.sha256(of: Self.file(index)))
        return ActionRecord(
            result: ContentDigest.sha256(of: Self.result(index)), resultKind: "bytes", summary: "200 B",
            outputFiles: [file], seconds: 0.5, recordedAt: 1_795_000_000, id: "tilt[\(index)]", components: components)
    }

    private static func result(_ index: Int) -> Data {
        (try? SerializedResult(kind: "bytes", payload: Data("result \(index) ".utf8) + Data(count: 180)).encoded)
            ?? Data()
    }

    private static func file(_ index: Int) -> Data { Data("output file \(index) ".utf8) + Data(count: 200) }

    private func write(_ data: Data, to path: String, modified: Double) throws -> Int64 {
        let directory = (path as NSString).deletingLastPathComponent
        if access(directory, F_OK) != 0 {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        _ = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let time = timespec(tv_sec: Int(modified), tv_nsec: 0)
        _ = [time, time].withUnsafeBufferPointer { futimens(descriptor, $0.baseAddress) }
        return Int64(data.count)
    }
}
