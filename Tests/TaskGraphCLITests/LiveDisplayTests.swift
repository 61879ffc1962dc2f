import Foundation
import Testing

@Suite struct LiveDisplayTests {
    /// Runs taskgraph on a pseudo-terminal with util-linux `script`, which records everything the
    /// terminal received.
    @Test func terminalGetsALiveDisplayThatIsClearedAtTheEnd() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let (status, screen) = try await TaskGraphProcess.runOnTerminal("run hello.yaml --output out", in: directory)
        #expect(status == 0)
        #expect(screen.contains("\u{1B}[?25l"), "hides the cursor while drawing")
        #expect(screen.contains("/5  done "), "draws the progress line")
        #expect(screen.contains("\u{1B}[?25h"), "restores the cursor")
        let afterDisplay = try #require(screen.components(separatedBy: "\u{1B}[?25h").last)
        #expect(afterDisplay.contains("5 ok in "), "the summary follows the cleared display")
        #expect(!afterDisplay.contains("[    0.0s]"), "no plain log lines on a terminal")
    }

    /// The second Ctrl-C ends the process at once, while the live display is drawn: it is erased
    /// and the cursor shown first.
    @Test func secondSigintErasesTheDisplayAndShowsTheCursor() async throws {
        let directory = try fixtureDirectory(["stubborn.yaml"])
        let terminal = try TaskGraphProcess.onTerminal("run stubborn.yaml --output out", in: directory)
        let pid = try #require(try await waitForFiles("parent-", count: 1, in: directory).first)
        kill(pid, SIGINT)
        // Past the window in which a second signal is taken for a copy of the first (500 ms).
        try await Task.sleep(for: .seconds(1))
        kill(pid, SIGINT)
        _ = await terminal.waitForExit()
        let screen = try String(contentsOf: directory.appendingPathComponent("typescript"), encoding: .utf8)
        #expect(screen.contains("/1  done "), "draws the progress line")
        // `script` ends the record with a line of its own, "Script done on … [COMMAND_EXIT_CODE="130"]".
        let shown = try #require(screen.components(separatedBy: "\nScript done on ").first)
        #expect(shown.hasSuffix("\r\u{1B}[J\u{1B}[?25h"), "erases the display and shows the cursor last")
        #expect(screen.hasSuffix("[COMMAND_EXIT_CODE=\"130\"]\n"), "killed by SIGINT")
    }
}
