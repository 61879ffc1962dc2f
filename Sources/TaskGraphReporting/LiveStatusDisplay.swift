import Foundation
import Synchronization
import TaskGraphCore

/// A live status display for terminals: a progress bar with counts and ETA, and one line per
/// running operation, redrawn in place ten times a second. Failures are printed above it as they
/// happen.
///
/// Starts no task of its own: the caller runs `run()` beside the engine in its task group and
/// cancels it once the engine has returned, which clears the display (swift-service-lifecycle's
/// rule). A process that ends at once calls `restoreTerminal()` instead.
public final class LiveStatusDisplay: EventSink, Sendable {
    private struct Running {
        var since: ContinuousClock.Instant
        var attempt: Int
        var progress: ProgressUpdate?
        /// Its remote job's latest status, when it runs on a cluster.
        var remote: RemoteJobStatus?
    }

    private struct State {
        var total = 0
        var counts: [NodeOutcome.Kind: Int] = [:]
        var running: [Int: Running] = [:]
        var started = ContinuousClock.now
        var frameHeight = 0
        var messages: [String] = []
        /// Whether the display is on screen: the cursor is hidden and frames are drawn.
        var isShown = false
        /// Whether the display is put away until `show()` (the process is stopped).
        var isHidden = false
        /// Whether `run()` has returned: the display never shows again.
        var hasEnded = false
        /// Whether the run is paused.
        var isPaused = false
    }

    private let nodes: [ExecutionGraph.Node]
    private let added: AddedNodes
    private let output: TextOutput
    private let useColor: Bool
    /// Guards `State`. Frames are also written under it, so a frame and the erasing of the
    /// display reach the terminal in the order they were made.
    private let state: Locked<State>

    /// A display of a run of `graph` on `output` (which should be a terminal).
    public init(graph: ExecutionGraph, output: TextOutput = .standardError, useColor: Bool = true) {
        nodes = graph.nodes
        added = AddedNodes(after: graph)
        self.output = output
        self.useColor = useColor
        state = Locked(State(total: graph.nodes.count))
    }

    private func id(_ node: Int) -> String {
        node < added.first ? nodes[node].id : added[node].id
    }

    /// Hides the cursor and redraws the display ten times a second until the calling task is
    /// cancelled; then erases it and shows the cursor, leaving failure messages in place.
    public func run() async {
        state.withLock { startDrawing(&$0) }
        while !Task.isCancelled {
            redraw()
            try? await Task.sleep(for: .milliseconds(100))
        }
        erase()
        state.withLock { $0.hasEnded = true }
    }

    /// Erases the display and shows the cursor at once, and waits until the terminal has it,
    /// until `show()`: for a process about to stop (Ctrl-Z). Blocking.
    public func hide() {
        state.withLock { $0.isHidden = true }
        restoreTerminal()
    }

    /// Draws the display again after `hide()` (the process was continued), unless the run ended.
    public func show() {
        state.withLock { state in
            guard state.isHidden, !state.hasEnded else { return }
            state.isHidden = false
            startDrawing(&state)
        }
    }

    /// Erases the display and shows the cursor at once, if it is on screen, and waits until the
    /// terminal has it: for a process about to end without waiting for `run()` to return.
    /// Blocking.
    public func restoreTerminal() {
        erase()
        output.flush()
    }

    public func receive(_ event: EngineEvent) {
        state.withLock { state in
            switch event.kind {
            case .runStarted(let count):
                state.total = count
            case .nodesAdded(_, let nodes):
                added.receive(event.kind)
                state.total += nodes.count
            case .nodeStarted(let node, let attempt, _):
                state.running[node] = Running(since: .now, attempt: attempt)
            case .nodeProgress(let node, let update):
                if update.message == nil, update.output == nil { state.running[node]?.progress = update }
                if let remote = update.remote { state.running[node]?.remote = remote }
            case .nodeRetrying(let node, let attempt, let message, _):
                state.messages.append(
                    paint("retry", 33) + DisplayText.escaped(" \(id(node)) after attempt \(attempt): \(message)"))
            case .nodeFinished(let node, let outcome):
                state.running[node] = nil
                state.counts[outcome.kind, default: 0] += 1
                if outcome.isFailure {
                    state.messages.append(paint("FAILED", 31) + DisplayText.escaped(" \(id(node)): \(outcome.reason)"))
                }
            case .warning(let node, let message):
                state.messages.append(
                    paint("warning", 33) + DisplayText.escaped(" " + (node.map { "\(id($0)): " } ?? "") + message))
            case .runPaused:
                state.isPaused = true
            case .runResumed:
                state.isPaused = false
            case .nodeCacheDecided(let node, let decision):
                if let warning = CorruptEntryWarning.message(for: decision) {
                    state.messages.append(paint("warning", 33) + DisplayText.escaped(" \(id(node)): \(warning)"))
                }
            case .nodeQueued, .runFinished:
                break
            }
        }
    }

    /// Prints `text` (whole lines) above the display with the next frame, or at once when the
    /// display is not on screen.
    public func print(_ text: String) {
        state.withLock { state in
            if state.isShown {
                state.messages.append(String(text.dropLast()))
            } else {
                output.write(text)
            }
        }
    }

    /// Hides the cursor; frames are drawn from now on.
    private func startDrawing(_ state: inout State) {
        state.isShown = true
        output.write("\u{1B}[?25l")
    }

    private func redraw() {
        state.withLock { state in
            guard state.isShown else { return }
            var text = messagesReplacingFrame(&state)
            let lines = frameLines(state)
            state.frameHeight = lines.count
            text += lines.joined(separator: "\n")
            if lines.count > 1 { text += "\u{1B}[\(lines.count - 1)A" }
            output.write(text + "\r")
        }
    }

    /// Erases the frame, prints the messages not printed yet and shows the cursor; once.
    private func erase() {
        state.withLock { state in
            guard state.isShown else { return }
            state.isShown = false
            output.write(messagesReplacingFrame(&state) + "\u{1B}[?25h")
            state.frameHeight = 0
        }
    }

    /// The text that erases the frame on screen and prints the messages not printed yet instead.
    private func messagesReplacingFrame(_ state: inout State) -> String {
        var text = state.frameHeight > 0 ? "\r\u{1B}[J" : ""
        for message in state.messages { text += message + "\n" }
        state.messages.removeAll()
        return text
    }

    private func frameLines(_ state: State) -> [String] {
        let width = max(output.terminalWidth ?? 80, 20)
        let finished = state.counts.values.reduce(0, +)
        let failed = state.counts.filter(\.key.isFailure).values.reduce(0, +)
        let elapsed = ContinuousClock.now - state.started
        let fraction = state.total == 0 ? 1 : Double(finished) / Double(state.total)
        let barWidth = max(10, min(30, width / 4))
        let filled = Int(fraction * Double(barWidth))
        var header =
            "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "] "
        // Remote jobs still waiting for a node are shown apart from those running.
        let pending = state.running.values.filter { $0.remote?.isWaiting == true }.count
        header +=
            "\(finished)/\(state.total)  done \(state.counts[.succeeded] ?? 0)  running "
            + "\(state.running.count - pending)"
        if pending > 0 { header += "  pending \(pending)" }
        header += "  queued \(max(0, state.total - finished - state.running.count))"
        if failed > 0 { header += "  " + paint("failed \(failed)", 31) }
        if state.isPaused { header += "  paused" }
        header += "  " + DurationText.format(elapsed)
        if finished > 0, finished < state.total {
            let remaining = elapsed * (Double(state.total - finished) / Double(finished))
            header += "  ETA " + DurationText.format(remaining)
        }
        let rows = state.running.sorted { $0.value.since < $1.value.since }.prefix(8).map { node, running in
            var line =
                "  \(DisplayText.escaped(id(node)))  \((node < added.first ? nodes[node].type : added[node].type))  "
                + "\(DurationText.format(ContinuousClock.now - running.since))"
            if running.attempt > 1 { line += "  attempt \(running.attempt)" }
            if let progress = running.progress { line += "  " + describe(progress) }
            if let remote = running.remote { line += "  job \(DisplayText.escaped(remote.job)) \(remote.state)" }
            return truncate(line, width)
        }
        var lines = [truncate(header, width + (useColor && failed > 0 ? 9 : 0))] + rows
        if state.running.count > rows.count { lines.append("  … \(state.running.count - rows.count) more running") }
        return lines
    }

    private func describe(_ progress: ProgressUpdate) -> String {
        let done = progress.unit == .bytes ? ByteCountText.format(progress.completed) : String(progress.completed)
        guard let total = progress.total else { return done }
        return done + " / " + (progress.unit == .bytes ? ByteCountText.format(total) : String(total))
    }

    private func truncate(_ line: String, _ width: Int) -> String {
        line.count <= width ? line : String(line.prefix(width - 1)) + "…"
    }

    private func paint(_ text: String, _ color: Int) -> String {
        useColor ? "\u{1B}[\(color)m\(text)\u{1B}[0m" : text
    }
}
