import Foundation
import TaskGraphCore

/// Shows the lines `exec` programs write (`OutputLine`s, streamed by the engine), each prefixed
/// with its operation's id as go-task and Turborepo do: `tilt[lake] | converting`.
///
/// By `mode`: as they arrive (`prefixed`), each operation's together when it ends (`grouped`),
/// only a failed operation's (`errors`), or none. An operation's lines held for later are
/// bounded: past `heldLimit` bytes only the last ones are kept, and a line says how many were
/// written. Lines replayed from a reused result are marked `(replayed)`.
public final class ProgramOutputLog: EventSink, Sendable {
    /// When an operation's lines are shown.
    public enum Mode: String, CaseIterable, Sendable {
        /// Each line as it arrives.
        case prefixed
        /// An operation's lines together when it ends.
        case grouped
        /// A failed operation's lines when it ends; nothing of the others.
        case errors
        /// None.
        case none
    }

    /// The most bytes of one operation's lines held until it ends.
    public static let heldLimit = 64 << 10

    /// One operation's lines held until it ends: the last ones, at most `heldLimit` bytes.
    private struct Held {
        /// The lines as shown, each with the bytes the program wrote for it.
        var lines: [(text: String, byteCount: Int)] = []
        /// The bytes the program wrote for `lines`.
        var byteCount = 0
        /// Bytes written in all, with those dropped.
        var writtenCount = 0
    }

    private let ids: [String]
    private let added: AddedNodes
    private let mode: Mode
    private let write: @Sendable (String) -> Void
    private let held = Locked<[Int: Held]>([:])

    /// Shows the lines of a run of `graph` in `mode`, handing the text to `write` (which prints
    /// it above a live display, or to standard error).
    public init(graph: ExecutionGraph, mode: Mode, write: @escaping @Sendable (String) -> Void) {
        ids = graph.nodes.map { $0.id }
        added = AddedNodes(after: graph)
        self.mode = mode
        self.write = write
    }

    private func id(_ node: Int) -> String {
        node < added.first ? ids[node] : added[node].id
    }

    public func receive(_ event: EngineEvent) {
        added.receive(event.kind)
        switch event.kind {
        case .nodeProgress(let node, let update):
            guard let line = update.output else { return }
            switch mode {
            case .prefixed: write(format(line, of: node))
            case .grouped, .errors: hold(format(line, of: node), writtenCount: line.text.utf8.count + 1, of: node)
            case .none: break
            }
        case .nodeFinished(let node, let outcome):
            guard mode == .grouped || mode == .errors else { return }
            guard let lines = held.withLock({ $0.removeValue(forKey: node) }) else { return }
            if mode == .grouped || outcome.isFailure { write(text(of: lines, node: node)) }
        default:
            break
        }
    }

    /// `id | text\n`, the id marked when the line is replayed; control characters but tabs
    /// escaped, so a program cannot move the cursor or rewrite the display.
    private func format(_ line: OutputLine, of node: Int) -> String {
        let text = line.text.split(separator: "\t", omittingEmptySubsequences: false)
            .map { DisplayText.escaped(String($0)) }.joined(separator: "\t")
        return DisplayText.escaped(id(node)) + (line.replayed ? " (replayed)" : "") + " | " + text + "\n"
    }

    /// Keeps `line` (for which the program wrote `writtenCount` bytes) for `node`, dropping its
    /// oldest lines past `heldLimit` bytes.
    private func hold(_ line: String, writtenCount: Int, of node: Int) {
        held.withLock { held in
            var lines = held[node, default: Held()]
            lines.lines.append((line, writtenCount))
            lines.byteCount += writtenCount
            lines.writtenCount += writtenCount
            var dropped = 0
            while lines.byteCount > Self.heldLimit, dropped < lines.lines.count - 1 {
                lines.byteCount -= lines.lines[dropped].byteCount
                dropped += 1
            }
            lines.lines.removeFirst(dropped)
            held[node] = lines
        }
    }

    /// The lines held for `node`, after a line saying how much was written when some were
    /// dropped.
    private func text(of held: Held, node: Int) -> String {
        let lines = held.lines.map(\.text).joined()
        guard held.writtenCount > held.byteCount else { return lines }
        return DisplayText.escaped(id(node)) + " | … \(ByteCountText.format(held.writtenCount)) of output, "
            + "the last \(ByteCountText.format(held.byteCount)):\n" + lines
    }
}
