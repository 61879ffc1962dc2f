import Foundation

/// Cuts a program's output, in the chunks the reaper reads, into lines for `TaskContext.reportOutput`.
/// A line longer than `maximumLineLength` bytes is cut there; `finish` reports what is left
/// after the last newline.
final class OutputLineSplitter: Sendable {
    /// The longest line reported whole.
    static let maximumLineLength = 16 << 10

    /// Where the lines go.
    private let emit: @Sendable (OutputLine) -> Void
    /// Whether standard output is reported (standard error always is).
    private let reportsStandardOutput: Bool
    /// Whether the lines are replayed from a reused result.
    private let replayed: Bool
    /// The bytes after the last newline, for each stream.
    private let partial = Locked<[OutputLine.Stream: [UInt8]]>([:])

    /// Reports lines to `emit`, those of standard output only if `reportsStandardOutput`, marked
    /// `replayed` or not.
    init(reportsStandardOutput: Bool, replayed: Bool = false, emit: @escaping @Sendable (OutputLine) -> Void) {
        self.reportsStandardOutput = reportsStandardOutput
        self.replayed = replayed
        self.emit = emit
    }

    /// Reports the lines `output` recorded when its program ran, marked replayed: its standard
    /// output (if `reportsStandardOutput`), then the end of its standard error that was kept.
    static func replay(
        _ output: ProcessOutput, reportsStandardOutput: Bool, emit: @escaping @Sendable (OutputLine) -> Void
    ) {
        let splitter = OutputLineSplitter(reportsStandardOutput: reportsStandardOutput, replayed: true, emit: emit)
        if reportsStandardOutput {
            splitter.take(.standardOutput, Array(output.data)[...])
            splitter.finish()
        }
        splitter.take(.standardError, Array(output.standardErrorTail.utf8)[...])
        splitter.finish()
    }

    /// Takes the next chunk of `stream` (a `ChildProcesses.OutputObserver`).
    func take(_ stream: OutputLine.Stream, _ chunk: ArraySlice<UInt8>) {
        guard stream == .standardError || reportsStandardOutput else { return }
        let lines = partial.withLock { partial in
            var pending = partial[stream, default: []] + chunk
            var lines: [OutputLine] = []
            var start = pending.startIndex
            while true {
                let window = pending[start..<min(pending.endIndex, start + Self.maximumLineLength + 1)]
                if let newline = window.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(line(stream, pending[start..<newline]))
                    start = newline + 1
                } else if pending.endIndex - start > Self.maximumLineLength {
                    lines.append(line(stream, pending[start..<(start + Self.maximumLineLength)]))
                    start += Self.maximumLineLength
                } else {
                    break
                }
            }
            pending.removeSubrange(..<start)
            partial[stream] = pending
            return lines
        }
        lines.forEach(emit)
    }

    /// Reports what is left after the last newline of each stream.
    func finish() {
        let rest = partial.withLock { partial in
            defer { partial = [:] }
            return partial.sorted { $0.key.rawValue < $1.key.rawValue }.filter { !$0.value.isEmpty }
        }
        for (stream, bytes) in rest { emit(line(stream, bytes[...])) }
    }

    private func line(_ stream: OutputLine.Stream, _ bytes: ArraySlice<UInt8>) -> OutputLine {
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        return OutputLine(stream, String(decoding: bytes, as: UTF8.self), replayed: replayed)
    }
}
