import TaskGraphCore

/// The data the report's script draws the timeline and the table from: one JSON object of
/// columns (one array per field, one entry per operation), compact for 100,000 operations and
/// safe inside a `<script>` element (every `<` is written `\u003c`).
enum ReportData {
    /// The JSON text for `run`.
    static func json(of run: RecordedRun) -> String {
        let operations = run.operations
        var pools: [String] = []
        var poolIndex: [String: Int] = [:]
        let poolColumn = operations.map { operation -> Int in
            let name = operation.pool ?? "default"
            if let known = poolIndex[name] { return known }
            poolIndex[name] = pools.count
            pools.append(name)
            return pools.count - 1
        }
        let kinds = NodeOutcome.Kind.allCases
        let kindIndex = Dictionary(uniqueKeysWithValues: kinds.enumerated().map { ($1, $0) })
        let columns: [(String, String)] = [
            ("id", strings(operations.map(\.id))),
            ("type", strings(operations.map(\.type))),
            ("outcome", integers(operations.map { kindIndex[$0.outcome] })),
            ("lane", integers(operations.map(\.lane))),
            ("pool", integers(poolColumn)),
            ("queued", numbers(operations.map(\.queued))),
            ("start", numbers(operations.map(\.started))),
            ("end", numbers(operations.map(\.ended))),
            ("attempts", integers(operations.map(\.attempts))),
            ("cpu", numbers(operations.map { $0.usage?.cpuTime })),
            ("rss", integers(operations.map { $0.usage?.maxResidentBytes })),
            ("read", integers(operations.map { $0.usage?.bytesRead })),
            ("written", integers(operations.map { $0.usage?.bytesWritten })),
            ("reason", strings(operations.map { $0.reason.isEmpty ? $0.cache : $0.reason })),
        ]
        let kindText = kinds.map {
            "{\"name\":\"\($0.eventName)\",\"label\":\"\($0.label)\",\"colour\":\"\($0.fillColour)\","
                + "\"failure\":\($0.isFailure)}"
        }
        let text =
            "{\"wall\":\(run.wallTime),\"pools\":\(strings(pools)),\"kinds\":[\(kindText.joined(separator: ","))],"
            + "\"ops\":{" + columns.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}}"
        return text.replacingOccurrences(of: "<", with: "\\u003c")
    }

    private static func strings(_ values: [String]) -> String {
        JSONText.array(values)
    }

    private static func integers(_ values: [Int?]) -> String {
        "[" + values.map { $0.map(String.init) ?? "null" }.joined(separator: ",") + "]"
    }

    private static func numbers(_ values: [Double?]) -> String {
        // Tenths of a millisecond, written by Swift's own (fast, shortest) description of a Double.
        "["
            + values.map { value in value.map { "\(($0 * 10_000).rounded() / 10_000)" } ?? "null" }.joined(
                separator: ",") + "]"
    }
}
