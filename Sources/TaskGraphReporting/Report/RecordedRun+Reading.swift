import Foundation
import TaskGraphCore

/// The keys of an event line the report reads; everything else is ignored.
// swift-format-ignore: AlwaysUseLowerCamelCase
// (Its properties are named as the event lines' keys are, docs/events.md.)
private struct EventLine: Decodable {
    struct Cache: Decodable {
        let status: String
        let reason: String
        let detail: String?
    }

    let event: String
    let time: Double?
    let timestamp: String?
    let id: String?
    let type: String?
    let pipeline: String?
    let command: [String]?
    let attempt: Int?
    let lane: Int?
    let pool: String?
    let reason: String?
    let because: String?
    let needs: [String]?
    let cache: Cache?
    let cancelled: Bool?
    let wall_time: Double?
    let cpu_user: Double?
    let cpu_system: Double?
    let max_rss: Int?
    let bytes_read: Int?
    let bytes_written: Int?
}

extension RecordedRun {
    /// The run recorded in a JSON Lines event stream (`run --events`). Unknown events and keys
    /// are ignored; a last line cut short (a run killed mid-write) is ignored too.
    /// - Parameter source: names the stream in errors, e.g. its path.
    /// - Throws: `RecordedRunError` when a line is not an event or the stream has no `run_started`.
    public static func read(_ data: Data, source: String) throws(RecordedRunError) -> RecordedRun {
        let (events, numbers) = try decode(data, source: source)
        for (event, line) in zip(events, numbers) {
            try RecordedRunError.checkSeconds(
                [
                    ("time", event.time), ("wall_time", event.wall_time), ("cpu_user", event.cpu_user),
                    ("cpu_system", event.cpu_system),
                ], source: source, line: line)
        }
        guard events.contains(where: { $0.event == "run_started" }) else { throw .noRunStarted(source: source) }
        var run = RecordedRun()
        var positions: [String: Int] = [:]
        for event in events { run.apply(event, positions: &positions) }
        return run
    }

    /// The events of `data`'s complete lines (empty ones skipped), decoded as one JSON array: one
    /// decoder call costs far less than one per line. Only when that fails are lines decoded one
    /// by one, to name the first bad one.
    /// - Returns: the events, and the number (from 1) of the line of each.
    private static func decode(_ data: Data, source: String) throws(RecordedRunError) -> (
        events: [EventLine], lines: [Int]
    ) {
        let lines = lineRanges(of: data)
        let numbers = lines.indices.filter { !lines[$0].isEmpty }.map { $0 + 1 }
        var array = Data(capacity: data.count + 2)
        array.append(UInt8(ascii: "["))
        for line in lines where !line.isEmpty {
            if array.count > 1 { array.append(UInt8(ascii: ",")) }
            array.append(data[line])
        }
        array.append(UInt8(ascii: "]"))
        let decoder = JSONDecoder()
        if let events = try? decoder.decode([EventLine].self, from: array) { return (events, numbers) }
        for (number, line) in lines.enumerated() where !line.isEmpty {
            guard (try? decoder.decode(EventLine.self, from: data[line])) != nil else {
                throw .notAnEvent(source: source, line: number + 1)
            }
        }
        // Not expected: every line parses alone, so the array should have too.
        throw .notAnEvent(source: source, line: lines.count)
    }

    /// The byte ranges of `data`'s lines that end with a newline (newline excluded): a last line
    /// without one was cut short and is left out.
    private static func lineRanges(of data: Data) -> [Range<Data.Index>] {
        data.withUnsafeBytes { bytes -> [Range<Data.Index>] in
            guard let base = bytes.baseAddress else { return [] }
            var ranges: [Range<Data.Index>] = []
            var start = 0
            while start < bytes.count, let found = memchr(base + start, 0x0A, bytes.count - start) {
                let end = base.distance(to: UnsafeRawPointer(found))
                ranges.append((data.startIndex + start)..<(data.startIndex + end))
                start = end + 1
            }
            return ranges
        }
    }

    private mutating func apply(_ line: EventLine, positions: inout [String: Int]) {
        if let time = line.time, !finished { wallTime = max(wallTime, time) }
        guard let id = line.id else {
            switch line.event {
            case "run_started":
                pipeline = line.pipeline ?? ""
                command = line.command ?? []
                startTimestamp = line.timestamp ?? ""
            case "run_finished":
                finished = true
                cancelled = line.cancelled ?? false
                wallTime = line.wall_time ?? wallTime
                endTimestamp = line.timestamp ?? ""
            default: break
            }
            return
        }
        let position =
            positions[id]
            ?? {
                operations.append(Operation(id: id, type: line.type ?? ""))
                positions[id] = operations.count - 1
                return operations.count - 1
            }()
        operations[position].apply(line)
    }
}

extension RecordedRun.Operation {
    fileprivate mutating func apply(_ line: EventLine) {
        switch line.event {
        case "queued": queued = line.time
        case "cache":
            if let cache = line.cache {
                let detail = cache.detail ?? ""
                self.cache = "\(cache.status): \(cache.reason)" + (detail.isEmpty ? "" : ": \(detail)")
            }
        case "started":
            if started == nil { started = line.time }
            attempts = max(attempts, line.attempt ?? 1)
            lane = line.lane
            pool = line.pool
        default:
            guard let kind = NodeOutcome.Kind(eventName: line.event) else { return }
            outcome = kind
            ended = line.time
            reason = line.reason ?? line.because.map { NodeOutcome.skipped(because: $0).reason } ?? ""
            needs = line.needs ?? needs
            if let user = line.cpu_user, let system = line.cpu_system {
                usage = ResourceUsage(
                    userCPU: user, systemCPU: system, maxResidentBytes: line.max_rss, bytesRead: line.bytes_read,
                    bytesWritten: line.bytes_written)
            }
        }
    }
}
