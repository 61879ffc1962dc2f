import TaskGraphReporting
import Testing

@testable import TaskGraphCore

/// The live display draws only while its `run()` runs, in the caller's task group.
@Suite struct LiveStatusDisplayTests {
    @Test func runDrawsUntilCancelledThenErasesAndShowsTheCursor() async throws {
        let graph = try graphOfEveryKind()
        let (output, path) = try scratchOutput(named: "terminal")
        let display = LiveStatusDisplay(graph: graph, output: output, useColor: false)
        display.receive(EngineEvent(elapsed: .zero, kind: .runStarted(nodeCount: graph.nodes.count)))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await display.run() }
            for (node, outcome) in everyOutcome.enumerated() { display.receive(finished(node, outcome)) }
            group.cancelAll()
        }
        display.restoreTerminal() // nothing left to restore: writes nothing
        let screen = try contents(of: path)
        #expect(screen.hasPrefix("\u{1B}[?25l"), "hides the cursor first")
        #expect(screen.contains("FAILED op-failed: 'sh' exited with status 3: \"disk\" on fire\n"))
        #expect(screen.contains("FAILED op-timed_out: timed out after 1500ms\n"))
        #expect(screen.hasSuffix("\u{1B}[?25h"), "shows the cursor last")
        #expect(screen.components(separatedBy: "\u{1B}[?25h").count == 2, "shows it once")
    }

    @Test func restoreTerminalErasesADisplayStillRunning() async throws {
        let graph = try graphOfEveryKind()
        let (output, path) = try scratchOutput(named: "terminal")
        let display = LiveStatusDisplay(graph: graph, output: output, useColor: false)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await display.run() }
            while try !contents(of: path).contains("/\(graph.nodes.count)  done ") {
                try? await Task.sleep(for: .milliseconds(10))
            }
            display.restoreTerminal()
            #expect(try contents(of: path).hasSuffix("\r\u{1B}[J\u{1B}[?25h"))
            group.cancelAll()
        }
        output.flush()
        #expect(try contents(of: path).hasSuffix("\r\u{1B}[J\u{1B}[?25h"), "draws nothing after")
    }

    @Test func aPausedRunSaysSoAndHidingForAStopRestoresTheTerminalUntilShown() async throws {
        let graph = try graphOfEveryKind()
        let (output, path) = try scratchOutput(named: "terminal")
        let display = LiveStatusDisplay(graph: graph, output: output, useColor: false)
        display.receive(EngineEvent(elapsed: .zero, kind: .runStarted(nodeCount: graph.nodes.count)))
        display.receive(EngineEvent(elapsed: .zero, kind: .runPaused))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await display.run() }
            while try !contents(of: path).contains("  paused  ") { try? await Task.sleep(for: .milliseconds(10)) }
            display.hide()
            #expect(try contents(of: path).hasSuffix("\r\u{1B}[J\u{1B}[?25h"), "erased, cursor shown, before stopping")
            display.receive(EngineEvent(elapsed: .zero, kind: .runResumed))
            display.show()
            output.flush()
            // The drawing loop may add a frame at once; the cursor is hidden before it.
            #expect(
                try contents(of: path).components(separatedBy: "\u{1B}[?25h").last!.hasPrefix("\u{1B}[?25l"),
                "hides the cursor again")
            while try !contents(of: path).components(separatedBy: "\u{1B}[?25l").last!.contains(
                "/\(graph.nodes.count)  done ")
            {
                output.flush()
                try? await Task.sleep(for: .milliseconds(10))
            }
            group.cancelAll()
        }
        output.flush()
        let lastFrames = try #require(try contents(of: path).components(separatedBy: "\u{1B}[?25l").last)
        #expect(!lastFrames.contains("paused"), "resumed")
        #expect(lastFrames.hasSuffix("\u{1B}[?25h"))
    }
}
