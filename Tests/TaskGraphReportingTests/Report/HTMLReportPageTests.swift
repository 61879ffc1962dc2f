import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphReporting

@Suite struct HTMLReportPageTests {
    /// A finished run of `count` operations `work[i]`, each needing `fetch[i]`, all succeeded.
    private func fanRun(_ count: Int, fetchID: (Int) -> String = { "fetch[\($0)]" }) -> RecordedRun {
        var run = RecordedRun()
        run.pipeline = "fan"
        run.finished = true
        for item in 0..<count {
            var fetch = RecordedRun.Operation(id: fetchID(item), type: "download")
            fetch.outcome = .succeeded
            var work = RecordedRun.Operation(id: "work[\(item)]", type: "exec")
            work.needs = [fetch.id]
            work.outcome = item == 0 ? .failed : .succeeded
            run.operations += [fetch, work]
        }
        return run
    }

    @Test func aLargeRunIsDrawnByTemplateWithCounts() {
        let run = fanRun(300)
        let svg = ReportGraph(run: run, criticalPath: []).svg()
        #expect(svg.components(separatedBy: " data-filter=").count - 1 == 2)
        #expect(svg.contains("work[*] ×300") && svg.contains("299 ok, 1 failed"))
        #expect(svg.contains("data-filter=\"work[\""))
        #expect(HTMLReport(run: run).render().contains("<div id=\"graph-expanded\"></div>"))
        // Small runs get a box per operation.
        #expect(
            ReportGraph(run: fanRun(3), criticalPath: []).svg().components(separatedBy: " data-filter=").count - 1 == 6)
    }

    @Test func layersFollowDependencies() {
        // 0 <- 1 <- 3, 0 <- 2 <- 3: a diamond.
        let layout = GraphLayout(dependencies: [[], [0], [0], [1, 2]])
        #expect(layout.column == [0, 1, 1, 2])
        #expect(layout.columnCount == 3 && layout.rowCount == 2)
    }

    @Test func recordedTextCannotEndTheScriptOrInjectMarkup() {
        let run = fanRun(1) { _ in "evil</script><img src=x onerror=alert(1)>" }
        let page = HTMLReport(run: run).render()
        // Only the page's own three script elements close.
        #expect(page.components(separatedBy: "</script>").count - 1 == 3)
        #expect(!page.contains("<img src=x"))
        #expect(page.contains("<section id=\"failures\">"))
    }
}
