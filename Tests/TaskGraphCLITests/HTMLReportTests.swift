import Foundation
import TaskGraphImaging
import Testing

/// `run --report` and `taskgraph report`, loaded in a real headless Chromium: the page's own
/// marker (`<body data-ready="1" data-errors="0">`, set by its script once everything is drawn,
/// with every uncaught error and `console.error` counted) says it ran without errors.
@Suite struct HTMLReportTests {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// The ids of every operation that ended, from an event file.
    private func operationIDs(inEvents file: URL) throws -> [String] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        return try lines.compactMap { line -> String? in
            let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return event?["needs"] != nil ? event?["id"] as? String : nil
        }
    }

    /// Checks the page's own marker of a finished, error-free load.
    private func expectLoadedCleanly(_ dom: String) {
        #expect(dom.contains("data-ready=\"1\""), "the page's script did not finish")
        #expect(
            dom.contains("data-errors=\"0\""),
            "script errors: \(dom.components(separatedBy: "id=\"report-errors\"").last ?? "")")
    }

    /// Whether a screenshot shows something: more than 2 % of its pixels are not the background.
    private func expectNotBlank(_ png: URL) async throws {
        let image = try await ImageCodec.decode(Data(contentsOf: png))
        let pixels = image.pixels
        let background = Array(pixels[0..<image.channels])
        var differing = 0
        for start in stride(from: 0, to: pixels.count, by: image.channels)
        where !pixels[start..<(start + image.channels)].elementsEqual(background) {
            differing += 1
        }
        #expect(differing * 50 > image.width * image.height, "the screenshot is blank")
    }

    @Test func photosReportLoadsInTheBrowserWithEveryOperationAndPreviews() async throws {
        let browser = try HeadlessBrowser()
        let directory = try fixtureDirectory()
        let run = try await TaskGraphProcess.run(
            [
                "run", Self.repository.appendingPathComponent("pipelines/photos.yaml").path, "--output", "out",
                "--report", "report.html", "--events", "events.jsonl",
            ], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let page = directory.appendingPathComponent("report.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("http://") && !html.contains("https://"), "the page must fetch nothing")
        let dom = try await browser.dom(of: page)
        expectLoadedCleanly(dom)
        let events = directory.appendingPathComponent("events.jsonl")
        let ids = try operationIDs(inEvents: events)
        #expect(ids.count == 26)
        for id in ids { #expect(dom.contains(id), "\(id) is not in the page") }
        #expect(dom.contains("id=\"timeline-svg\"") && dom.contains("<rect class=\"bar\""))
        #expect(dom.contains("id=\"graph-svg\"") && dom.components(separatedBy: " data-filter=").count - 1 == 26)
        // Before and after: the thumbnail and the toned photo of each of the three, and the contact sheet.
        #expect(dom.components(separatedBy: "src=\"data:image/jpeg;base64,").count - 1 == 7)
        #expect(dom.contains("class=\"row\""), "the table drew no rows")
        // Built-in operations report the CPU time of their work on the run's blocking threads.
        let tilts = try String(contentsOf: events, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "succeeded" && $0["type"] as? String == "tilt-shift" }
        #expect(tilts.count == 3)
        #expect(tilts.allSatisfy { ($0["cpu_user"] as? Double ?? 0) + ($0["cpu_system"] as? Double ?? 0) > 0 })
        let screenshot = directory.appendingPathComponent("report.png")
        try await browser.screenshot(of: page, to: screenshot)
        try await expectNotBlank(screenshot)
    }

    @Test func failureComesFirstAndTheEventFileGivesTheSamePage() async throws {
        let browser = try HeadlessBrowser()
        let directory = try fixtureDirectory(["failing.yaml"])
        let run = try await TaskGraphProcess.run(
            ["run", "failing.yaml", "--output", "out", "--report", "run.html", "--events", "events.jsonl"],
            in: directory)
        #expect(run.status == 1)
        let replay = try await TaskGraphProcess.run(["report", "events.jsonl", "-o", "replay.html"], in: directory)
        #expect(replay.status == 0, "\(replay.stderr)")
        let dom = try await browser.dom(of: directory.appendingPathComponent("run.html"))
        expectLoadedCleanly(dom)
        let sections = dom.components(separatedBy: "<section id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(sections == ["failures", "timeline", "graph", "operations"])
        #expect(dom.contains("<article class=\"failure\" data-id=\"broken\">"))
        #expect(dom.contains("first line | disk on fire"))
        for id in ["fine", "broken", "after-broken"] { #expect(dom.contains(id)) }
        // Failures first in the table too.
        let rows = dom.components(separatedBy: "<div class=\"row\" data-id=\"").dropFirst().map {
            $0.prefix { $0 != "\"" }
        }
        #expect(rows.first == "broken")
        // Both pages come from the same events; only the writers' clocks may differ by a moment.
        let timestamps = try Regex(#"\d{4}-\d\d-\d\dT[0-9:.]+Z"#)
        let pages = try ["run.html", "replay.html"].map {
            try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8).replacing(
                timestamps, with: "")
        }
        #expect(pages[0] == pages[1])
        let screenshot = directory.appendingPathComponent("failure.png")
        try await browser.screenshot(of: directory.appendingPathComponent("replay.html"), to: screenshot)
        try await expectNotBlank(screenshot)
    }

    @Test func aLargeRunIsDrawnByTemplateAndLoadsCleanly() async throws {
        let browser = try HeadlessBrowser()
        let directory = try fixtureDirectory()
        // 600 recorded operations: fetch[i] and work[i] needing it; work[7] failed.
        var lines = [
            #"{"event":"run_started","time":0,"timestamp":"2026-11-24T06:00:00.000Z","schema_version":1,"#
                + #""pipeline":"wide","operations":600}"#
        ]
        for item in 0..<300 {
            for (name, needs) in [("fetch", ""), ("work", "\"fetch[\(item)]\"")] {
                let time = Double(item) * 0.01
                let ending =
                    name == "work" && item == 7 ? #""event":"failed","reason":"boom""# : #""event":"succeeded""#
                lines.append(
                    #"{"event":"started","time":\#(time),"timestamp":"2026-11-24T06:00:00.000Z","#
                        + #""id":"\#(name)[\#(item)]","type":"exec","attempt":1,"lane":\#(item % 2)}"#
                )
                lines.append(
                    #"{\#(ending),"time":\#(time + 0.005),"timestamp":"2026-11-24T06:00:00.000Z","#
                        + #""id":"\#(name)[\#(item)]","type":"exec","needs":[\#(needs)]}"#
                )
            }
        }
        lines.append(
            #"{"event":"run_finished","time":4,"timestamp":"2026-11-24T06:00:04.000Z","wall_time":4,"cancelled":false,"#
                + #""counts":{}}"#
        )
        try write(lines.joined(separator: "\n") + "\n", to: "events.jsonl", in: directory)
        let report = try await TaskGraphProcess.run(["report", "events.jsonl", "-o", "wide.html"], in: directory)
        #expect(report.status == 0, "\(report.stderr)")
        let dom = try await browser.dom(of: directory.appendingPathComponent("wide.html"))
        expectLoadedCleanly(dom)
        #expect(dom.components(separatedBy: " data-filter=").count - 1 == 2)
        #expect(dom.contains("fetch[*] ×300") && dom.contains("work[*] ×300") && dom.contains("299 ok, 1 failed"))
        #expect(dom.contains("<article class=\"failure\" data-id=\"work[7]\">"))
        #expect(dom.contains("<div id=\"graph-expanded\"></div>"))
    }

    @Test func reportRefusesWhatIsNotAnEventStreamAndWritesNothing() async throws {
        let directory = try fixtureDirectory(["failing.yaml"])
        try write("{\"event\":\"run_started\"}\nnot json\n", to: "broken.jsonl", in: directory)
        let broken = try await TaskGraphProcess.run(["report", "broken.jsonl", "-o", "page.html"], in: directory)
        #expect(broken.status == 2)
        #expect(
            broken.stderr == "taskgraph: broken.jsonl:2: not a taskgraph event (a JSON object with an \"event\" key)\n")
        let missing = try await TaskGraphProcess.run(["report", "absent.jsonl", "-o", "page.html"], in: directory)
        #expect(missing.status == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("page.html").path))
        let noDirectory = try await TaskGraphProcess.run(
            ["run", "failing.yaml", "--report", "nowhere/page.html"], in: directory)
        #expect(noDirectory.status == 64)
        #expect(noDirectory.stderr.contains("--report: directory 'nowhere' does not exist"))
        let isDirectory = try await TaskGraphProcess.run(["report", "absent.jsonl", "-o", "."], in: directory)
        #expect(isDirectory.status == 1)
        #expect(
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path), "nothing may run")
    }
}
