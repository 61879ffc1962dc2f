import Foundation
import TaskGraphCore
import TaskGraphStore

/// Store benchmark: collection of a large store, and record lookups as a no-op run makes them.
///
///     store-bench gc --entries 100000 [--dir DIR] [--synced]
///     store-bench lookup --entries 10000 [--dir DIR]
///     store-bench fill --entries 100000 --dir DIR
///
/// Each fills a fresh store in a temporary directory (or DIR) with records and blobs written
/// directly (no fsync: the fill is not what is measured), then prints one line per measurement:
/// `<what> <numbers…>`, seconds last. With `--synced`, the filled store is written to disk
/// (`sync`) before anything is timed, as a real store's files are (each written with `fsync`):
/// on a file system with delayed allocation, files removed before they reach the disk free no
/// blocks, so their removal costs less than a real store's. `fill` only fills DIR and keeps it, for measuring other
/// tools on the same files (bench/gc-floor.c).
@main
enum StoreBenchmark {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let mode = arguments.first, let entries = option("--entries", in: arguments).flatMap({ Int($0) })
        else { usage() }
        let directory =
            option("--dir", in: arguments)
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(getpid())").path
        if mode == "fill", arguments.contains("--dir") {
            let fill = try StoreFiller(root: directory).fill(entries: entries)
            return print("fill entries=\(entries) bytes=\(fill.bytes) \(format(fill.seconds))")
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        switch mode {
        case "gc": try await collection(entries: entries, root: directory, synced: arguments.contains("--synced"))
        case "lookup": try await lookups(entries: entries, root: directory)
        default: usage()
        }
    }

    /// Times a collection that finds nothing to remove (the scan alone), then one that evicts
    /// half the store.
    static func collection(entries: Int, root: String, synced: Bool) async throws {
        let fill = try StoreFiller(root: root).fill(entries: entries)
        print("fill entries=\(entries) bytes=\(fill.bytes) \(format(fill.seconds))")
        if synced { print("sync \(format(await measure { sync() }))") }
        let store = ContentStore(root: root, registry: .core)
        var report = GarbageCollectionReport(scanned: false, sizeBefore: 0, sizeAfter: 0)
        var cpu = 0.0
        let status = try await measure(cpu: &cpu) { _ = try await store.status() }
        print("status entries=\(entries) cpu=\(format(cpu)) \(format(status))")
        let scan = try await measure(cpu: &cpu) { report = try await store.collectGarbage(maxSize: nil, maxAge: nil) }
        print("gc-scan entries=\(entries) removed=\(report.recordsRemoved) cpu=\(format(cpu)) \(format(scan))")
        let evict = try await measure(cpu: &cpu) {
            report = try await store.collectGarbage(maxSize: report.sizeAfter / 2, maxAge: nil)
        }
        print(
            "gc-evict entries=\(entries) removed_records=\(report.recordsRemoved) removed_blobs=\(report.blobsRemoved) "
                + "cpu=\(format(cpu)) \(format(evict))")
    }

    /// Times `record(for:)` for every key, one at a time, with 8 in flight, and in batches of
    /// 100 (`records(for:)`), inside a run's resources as the engine calls it, and an empty trip
    /// to a blocking thread; then the blocking part alone, and decoding the same records by hand
    /// and with `JSONDecoder`.
    static func lookups(entries: Int, root: String) async throws {
        let filler = StoreFiller(root: root)
        let fill = try filler.fill(entries: entries)
        print("fill entries=\(entries) bytes=\(fill.bytes) \(format(fill.seconds))")
        let store = ContentStore(root: root, registry: .core)
        let resources = RunResources()
        await RunResources.$current.withValue(resources) {
            var found = 0
            for key in fill.keys where await store.record(for: key) != nil { found += 1 }
            precondition(found == entries, "only \(found) of \(entries) records found")
            let sequential = await measure { for key in fill.keys { _ = await store.record(for: key) } }
            print(
                "lookup-sequential entries=\(entries) per_call_us=\(perCall(sequential, entries)) \(format(sequential))"
            )
            let concurrent = await measure { await lookUpConcurrently(fill.keys, in: store, width: 8) }
            print(
                "lookup-concurrent8 entries=\(entries) per_call_us=\(perCall(concurrent, entries)) "
                    + "\(format(concurrent))"
            )
            let batched = await measure {
                for start in stride(from: 0, to: entries, by: 100) {
                    _ = await store.records(for: Array(fill.keys[start..<min(start + 100, entries)]))
                }
            }
            print("lookup-batched100 entries=\(entries) per_call_us=\(perCall(batched, entries)) \(format(batched))")
            let hops = await measure { for _ in fill.keys { _ = try? await BlockingIO.run { 0 } } }
            print("blockingio-hop entries=\(entries) per_call_us=\(perCall(hops, entries)) \(format(hops))")
        }
        await resources.shutDown()
        let layout = StoreLayout(root: root)
        let direct = await measure { for key in fill.keys { _ = ContentStore.readRecord(for: key, layout) } }
        print("lookup-blocking-part entries=\(entries) per_call_us=\(perCall(direct, entries)) \(format(direct))")
        let records = fill.keys.indices.map { filler.record($0) }
        let binary = records.map { ActionRecordCoder.encode($0) }
        let json = try records.map { try JSONEncoder().encode($0) }
        let byHand = await measure { for data in binary { precondition(ActionRecordCoder.decode(data) != nil) } }
        let decoder = JSONDecoder()
        let withJSON = try await measure { for data in json { _ = try decoder.decode(ActionRecord.self, from: data) } }
        print("decode-binary entries=\(entries) per_call_us=\(perCall(byHand, entries)) \(format(byHand))")
        print("decode-jsondecoder entries=\(entries) per_call_us=\(perCall(withJSON, entries)) \(format(withJSON))")
        print("decode-ratio jsondecoder/binary=\(String(format: "%.1f", withJSON / byHand))")
    }

    static func lookUpConcurrently(_ keys: [ContentDigest], in store: ContentStore, width: Int) async {
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            while next < keys.count {
                if next >= width { await group.next() }
                let key = keys[next]
                group.addTask { _ = await store.record(for: key) }
                next += 1
            }
        }
    }

    /// The wall seconds `body` took; the process's CPU seconds (all threads) go to `cpu`, which
    /// moves less than wall time when other work shares the machine.
    static func measure(cpu: inout Double, _ body: () async throws -> Void) async rethrows -> Double {
        let cpuStart = processCPUSeconds()
        let wall = try await measure(body)
        cpu = processCPUSeconds() - cpuStart
        return wall
    }

    static func measure(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func perCall(_ seconds: Double, _ count: Int) -> String {
        String(format: "%.2f", seconds / Double(count) * 1e6)
    }

    static func format(_ seconds: Double) -> String { String(format: "%.4f", seconds) }

    static func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    static func usage() -> Never {
        FileHandle.standardError.write(
            Data("usage: store-bench gc|lookup --entries N [--dir DIR] [--synced] | fill --entries N --dir DIR\n".utf8))
        exit(64)
    }
}
