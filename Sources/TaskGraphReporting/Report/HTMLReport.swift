import Foundation
import TaskGraphCore

/// The run report (`run --report`, `taskgraph report`): one self-contained HTML page (styles,
/// script, data and pictures inline; nothing fetched) with the run's header, its failures first,
/// previews of image outputs, a zoomable timeline, the graph with its critical path and a
/// sortable, filterable table of every operation. A pure function of the recorded run and the
/// previews; the timeline and the table draw only what is visible, so pages of 100,000
/// operations stay usable.
public struct HTMLReport: Sendable {
    /// The run to show.
    public var run: RecordedRun
    /// Pictures of image outputs, in the order to show them.
    public var previews: [ReportPreview]

    /// A report of `run` with `previews`.
    public init(run: RecordedRun, previews: [ReportPreview] = []) {
        self.run = run
        self.previews = previews
    }

    /// The page.
    public func render() -> String {
        let path = run.criticalPath()
        let graph = ReportGraph(run: run, criticalPath: path)
        var page =
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<title>taskgraph report: \(HTMLText.escape(run.pipeline))</title>"
            + "<style>\(HTMLReportStyle.css)</style><script>\(HTMLReportScript.errorCatcher)</script></head>\n"
            + "<body data-ready=\"0\" data-errors=\"0\">\n"
        page += header() + failures() + previewSection()
        page +=
            "<section id=\"timeline\"><h2>Timeline</h2><p class=\"hint\">Scroll to zoom, drag to pan, hover for "
            + "details. <button data-zoom=\"in\">+</button> <button data-zoom=\"out\">−</button> "
            + "<button data-zoom=\"fit\">fit</button></p><div id=\"timeline-view\"><svg id=\"timeline-svg\">"
            + "</svg></div><div id=\"tooltip\" hidden></div></section>\n"
        page +=
            "<section id=\"graph\"><h2>Graph</h2><p class=\"hint\">\(graphCaption(graph: graph, path: path))</p>"
            + "<div class=\"scroll\">\(graph.svg())</div>"
            + (graph.byTemplate ? "<div id=\"graph-expanded\"></div>" : "") + "</section>\n"
        page +=
            "<section id=\"operations\"><h2>Operations</h2><p class=\"hint\"><input id=\"filter\" type=\"search\" "
            + "placeholder=\"filter: id, type or reason\"> <select id=\"outcome-filter\"><option value=\"\">every "
            + "outcome</option>"
            + NodeOutcome.Kind.allCases.map { "<option value=\"\($0.eventName)\">\($0.label)</option>" }.joined()
            + "</select> <span id=\"row-count\"></span></p><div id=\"table\"><div id=\"table-head\"></div>"
            + "<div id=\"table-view\"><div id=\"table-rows\"></div></div></div></section>\n"
        page += "<script type=\"application/json\" id=\"report-data\">\(ReportData.json(of: run))</script>\n"
        page += "<script>\(HTMLReportScript.body)</script>\n"
        return page + "</body></html>\n"
    }

    /// Writes the page to `path` as `RequestedOutputFile` writes: a regular file atomically (the
    /// old file or the whole new one, never a part), a FIFO or character device in place.
    /// Blocking: call through `BlockingIO.run`.
    /// - Throws: `OperationError.writeFailed`.
    public func write(to path: String) throws {
        try RequestedOutputFile.write(Data(render().utf8), to: path)
    }

    private func header() -> String {
        let counts = run.counts
        let chips = NodeOutcome.Kind.allCases.compactMap { kind in
            counts[kind].map {
                "<span class=\"chip\" style=\"background:\(kind.fillColour)\">\($0) \(kind.label)</span>"
            }
        }.joined(separator: " ")
        let ran = run.operations.filter { $0.started != nil }.count
        let status =
            run.exitStatus.map { "\($0)" } ?? (run.cancelled ? "cancelled (killed by the signal)" : "did not finish")
        let rows: [(String, String)] = [
            ("command", run.command.isEmpty ? "—" : run.command.map(Self.shellQuoted).joined(separator: " ")),
            ("started", run.startTimestamp), ("ended", run.endTimestamp.isEmpty ? "—" : run.endTimestamp),
            ("wall time", DurationText.format(JSONText.duration(seconds: run.wallTime))), ("exit status", status),
            ("operations", "\(run.operations.count): \(ran) ran, \(counts[.cached] ?? 0) reused from the cache"),
        ]
        return "<header><h1>\(HTMLText.escape(run.pipeline))</h1><dl>"
            + rows.map { "<dt>\($0.0)</dt><dd>\(HTMLText.escape($0.1))</dd>" }.joined()
            + "</dl><p id=\"counts\">\(chips)</p></header>\n"
    }

    private func failures() -> String {
        let failed = run.operations.filter { $0.outcome.isFailure }
        guard !failed.isEmpty else { return "" }
        let items = failed.map { operation in
            "<article class=\"failure\" "
                + "data-id=\"\(HTMLText.escape(operation.id))\"><h3>\(HTMLText.escape(operation.id))</h3>"
                + "<p>\(HTMLText.escape(operation.type)) · \(operation.outcome.label) · attempt "
                + "\(operation.attempts)</p>"
                + "<pre>\(HTMLText.escape(operation.reason))</pre></article>"
        }
        return "<section id=\"failures\"><h2>Failures (\(failed.count))</h2>\(items.joined())</section>\n"
    }

    private func previewSection() -> String {
        guard !previews.isEmpty else { return "" }
        var groups: [(item: String, previews: [ReportPreview])] = []
        for preview in previews {
            let item = preview.operation.firstIndex(of: "[").map { String(preview.operation[$0...]) } ?? ""
            if let existing = groups.firstIndex(where: { $0.item == item }) {
                groups[existing].previews.append(preview)
            } else {
                groups.append((item, [preview]))
            }
        }
        let rows = groups.map { group in
            "<div class=\"preview-row\">"
                + group.previews.map { preview in
                    "<figure><img alt=\"\(HTMLText.escape(preview.operation))\" src=\"data:image/jpeg;base64,"
                        + preview.jpeg.base64EncodedString()
                        + "\"><figcaption>\(HTMLText.escape(preview.operation))</figcaption></figure>"
                }.joined() + "</div>"
        }
        return "<section id=\"previews\"><h2>Previews</h2>\(rows.joined())</section>\n"
    }

    private func graphCaption(graph: ReportGraph, path: [Int]) -> String {
        var caption =
            graph.byTemplate
            ? "\(run.operations.count) operations, drawn by template; click one to expand it into its operations. "
            : "Click an operation to find it in the table. "
        if path.count > 1 {
            let total = path.reduce(0.0) { $0 + (run.operations[$1].runTime ?? 0) }
            let ids = path.map { run.operations[$0].id }
            let shown = ids.count > 12 ? ids.prefix(5) + ["… \(ids.count - 10) more …"] + ids.suffix(5) : ids[...]
            caption +=
                "Critical path (\(DurationText.format(JSONText.duration(seconds: total))), outlined): "
                + HTMLText.escape(shown.joined(separator: " → "))
        }
        return caption
    }

    /// `argument` as a POSIX shell word.
    private static func shellQuoted(_ argument: String) -> String {
        let plain = !argument.isEmpty && argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@+%".contains($0) }
        return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
