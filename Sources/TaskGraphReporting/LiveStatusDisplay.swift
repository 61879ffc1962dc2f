import Foundation
import Synchronization
import TaskGraphCore

/// A live status display for terminals: a progress bar with counts and ETA, and one line per
/// running operation, redrawn in place ten times a second. Failures are printed above it as they
/// happen. `finish()` clears it.
public final class LiveStatusDisplay: EventSink, Sendable {
    private struct Running {
        var since: ContinuousClock.Instant
        var attempt: Int
        var progress: ProgressUpdate?
    }

    private struct State {
        var total = 0
        var counts: [String: Int] = [:]
        var running: [Int: Running] = [:]
        var started = ContinuousClock.now
        var frameHeight = 0
        var messages: [String] = []
    }

    private let nodes: [ExecutionGraph.Node]
    private let output: TextOutput
    private let useColor: Bool
    private let state: Locked<State>
    private let redrawLoop = Locked<Task<Void, Never>?>(nil)

    /// A display of a run of `graph` on `output` (which should be a terminal).
    public init(graph: ExecutionGraph, output: TextOutput = .standardError, useColor: Bool = true) {
        nodes = graph.nodes
        self.output = output
        self.useColor = useColor
        state = Locked(State(total: graph.nodes.count))
        output.write("\u{1B}[?25l")
        redrawLoop.withLock { loop in
            loop = Task { [weak self] in
                while !Task.isCancelled {
                    self?.redraw()
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
        }
    }

    public func receive(_ event: EngineEvent) {
        state.withLock { state in
            switch event.kind {
            case .runStarted(let count):
                state.total = count
            case .nodeStarted(let node, let attempt, _):
                state.running[node] = Running(since: .now, attempt: attempt)
            case .nodeProgress(let node, let update):
                if update.message == nil { state.running[node]?.progress = update }
            case .nodeRetrying(let node, let attempt, let message, _):
                state.messages.append(paint("retry", 33) + " \(nodes[node].id) after attempt \(attempt): \(message)")
            case .nodeFinished(let node, let outcome):
                state.running[node] = nil
                state.counts[outcome.label, default: 0] += 1
                if outcome.isFailure {
                    state.messages.append(paint("FAILED", 31) + " \(nodes[node].id): \(outcome.reason)")
                }
            case .nodeQueued, .runFinished:
                break
            }
        }
    }

    /// Stops redrawing and erases the display, leaving failure messages in place.
    public func finish() {
        redrawLoop.withLock { $0?.cancel() }
        redraw(final: true)
        output.write("\u{1B}[?25h")
        output.flush()
    }

    private func redraw(final: Bool = false) {
        let frame = state.withLock { state -> String in
            var text = state.frameHeight > 0 ? "\r\u{1B}[J" : ""
            for message in state.messages { text += message + "\n" }
            state.messages.removeAll()
            guard !final else {
                state.frameHeight = 0
                return text
            }
            let lines = frameLines(state)
            state.frameHeight = lines.count
            text += lines.joined(separator: "\n")
            if lines.count > 1 { text += "\u{1B}[\(lines.count - 1)A" }
            return text + "\r"
        }
        output.write(frame)
    }

    private func frameLines(_ state: State) -> [String] {
        let width = max(output.terminalWidth ?? 80, 20)
        let finished = state.counts.values.reduce(0, +)
        let failed = (state.counts["failed"] ?? 0) + (state.counts["timed out"] ?? 0)
        let elapsed = ContinuousClock.now - state.started
        let fraction = state.total == 0 ? 1 : Double(finished) / Double(state.total)
        let barWidth = max(10, min(30, width / 4))
        let filled = Int(fraction * Double(barWidth))
        var header = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "] "
        header += "\(finished)/\(state.total)  done \(state.counts["ok"] ?? 0)  running \(state.running.count)"
        header += "  queued \(max(0, state.total - finished - state.running.count))"
        if failed > 0 { header += "  " + paint("failed \(failed)", 31) }
        header += "  " + DurationText.format(elapsed)
        if finished > 0, finished < state.total {
            let remaining = elapsed * (Double(state.total - finished) / Double(finished))
            header += "  ETA " + DurationText.format(remaining)
        }
        let rows = state.running.sorted { $0.value.since < $1.value.since }.prefix(8).map { node, running in
            var line = "  \(nodes[node].id)  \(nodes[node].type)  \(DurationText.format(ContinuousClock.now - running.since))"
            if running.attempt > 1 { line += "  attempt \(running.attempt)" }
            if let progress = running.progress { line += "  " + describe(progress) }
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
