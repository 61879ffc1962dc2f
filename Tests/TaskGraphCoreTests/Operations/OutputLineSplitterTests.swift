import Foundation
import Testing

@testable import TaskGraphCore

/// Cutting a program's output into the lines `run --logs` shows.
struct OutputLineSplitterTests {
    /// The lines `body` makes a splitter emit.
    private func lines(reportsStandardOutput: Bool = true, _ body: (OutputLineSplitter) -> Void) -> [OutputLine] {
        let emitted = Locked<[OutputLine]>([])
        let splitter = OutputLineSplitter(reportsStandardOutput: reportsStandardOutput) { line in
            emitted.withLock { $0.append(line) }
        }
        body(splitter)
        return emitted.withLock { $0 }
    }

    @Test func linesAcrossChunksEndingsAndTheRestAtTheEnd() {
        let emitted = lines { splitter in
            splitter.take(.standardOutput, Array("one\ntw".utf8)[...])
            splitter.take(.standardError, Array("warn\r\n".utf8)[...])
            splitter.take(.standardOutput, Array("o\n\nthree".utf8)[...])
            splitter.finish()
        }
        #expect(
            emitted == [
                OutputLine(.standardOutput, "one"), OutputLine(.standardError, "warn"),
                OutputLine(.standardOutput, "two"),
                OutputLine(.standardOutput, ""), OutputLine(.standardOutput, "three"),
            ])
    }

    @Test func aLongLineIsCutAndStandardOutputCanBeLeftOut() {
        let long = String(repeating: "x", count: OutputLineSplitter.maximumLineLength + 5)
        let emitted = lines(reportsStandardOutput: false) { splitter in
            splitter.take(.standardOutput, Array("data\n".utf8)[...])
            splitter.take(.standardError, Array((long + "\n").utf8)[...])
        }
        #expect(
            emitted == [
                OutputLine(.standardError, String(repeating: "x", count: OutputLineSplitter.maximumLineLength)),
                OutputLine(.standardError, "xxxxx"),
            ])
    }

    @Test func aRecordedResultIsReplayedStandardOutputFirst() {
        let output = ProcessOutput(data: Data("out\n".utf8), status: .exited(0), standardErrorTail: "e1\ne2")
        for reportsStandardOutput in [true, false] {
            let emitted = Locked<[OutputLine]>([])
            OutputLineSplitter.replay(output, reportsStandardOutput: reportsStandardOutput) { line in
                emitted.withLock { $0.append(line) }
            }
            let errors = [
                OutputLine(.standardError, "e1", replayed: true), OutputLine(.standardError, "e2", replayed: true),
            ]
            #expect(
                emitted.withLock { $0 }
                    == (reportsStandardOutput ? [OutputLine(.standardOutput, "out", replayed: true)] : []) + errors)
        }
    }
}
